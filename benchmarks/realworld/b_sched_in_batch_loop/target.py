"""Small classifier whose training step advances an epoch-based StepLR on every batch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCHES_PER_EPOCH = 30


class SmallNet(nn.Module):
    def __init__(self, d_in=16, hidden=64, n_cls=4):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.fc2 = nn.Linear(hidden, n_cls)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def make_optimizer(params):
    return torch.optim.SGD(params, lr=0.05, momentum=0.9)


def train_step(model, batch, optimizer, loss_fn):
    # schedule meant in EPOCHS: divide the LR by 10 every 10 epochs
    sched = getattr(optimizer, "_epoch_sched", None)
    if sched is None:
        sched = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10, gamma=0.1)
        optimizer._epoch_sched = sched
    x, y = batch
    model.train()
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    sched.step()  # BUG: called for every batch, not once per epoch
    return loss


def make_target():
    torch.manual_seed(0)
    w = torch.randn(16, 4)
    x = torch.randn(512, 16)
    y = (x @ w).argmax(dim=1)
    model = SmallNet()
    return {
        "model": model,
        "batch": (x[:32], y[:32]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": make_optimizer,
        "train_step": train_step,
        "train_data": (x[:384], y[:384]),
        "val_data": (x[384:], y[384:]),
    }
