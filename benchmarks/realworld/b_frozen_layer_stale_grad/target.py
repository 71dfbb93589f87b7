"""Two-stage training: fc1 is 'frozen' by flipping requires_grad after stage 1, leaving its .grad behind."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(20, 32)
        self.fc2 = nn.Linear(32, 5)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def set_freeze(model, layer_name, freeze=True):
    for p in getattr(model, layer_name).parameters():
        p.requires_grad = not freeze  # BUG: the stale p.grad from stage 1 is kept


def make_optimizer(params):
    return torch.optim.SGD(params, lr=0.05, momentum=0.9, weight_decay=5e-4)


def train_step(model, batch, optimizer, loss_fn):
    x, y = batch
    model.train()
    optimizer.zero_grad(set_to_none=False)  # zeros existing grads in place, keeps the tensors
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss


def make_target():
    torch.manual_seed(0)
    model = Net()
    x = torch.randn(32, 20)
    y = torch.randint(0, 5, (32,))
    # end of stage 1: the last backward left gradients on every parameter
    F.cross_entropy(model(x), y).backward()
    set_freeze(model, "fc1", True)
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": make_optimizer,
        "train_step": train_step,
    }
