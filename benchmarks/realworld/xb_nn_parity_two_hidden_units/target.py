"""Four hand-made examples and a small ReLU net that should memorise them.

Rule: label 1 for [1,0,0,1] and [0,1,1,0], label 0 for [1,0,1,0] and [0,1,0,1]
(an XOR-like rule on the 1st and 4th features). Inputs are standardised per column.
Layers are 4 -> 2 -> 2 -> 1 with a sigmoid output and BCE.
"""
import torch
import torch.nn as nn

SAMPLES = torch.tensor([[0., 1., 1., 0.],
                        [1., 0., 0., 1.],
                        [0., 1., 0., 1.],
                        [1., 0., 1., 0.]])
LABELS = torch.tensor([1., 1., 0., 0.]).view(-1, 1)


def normalize(x):
    return (x - x.mean(0, keepdim=True)) / x.std(0, keepdim=True)


class SmallNet(nn.Module):
    def __init__(self, hidden1=2, hidden2=2):
        super().__init__()
        self.linear1 = nn.Linear(4, hidden1)
        self.linear2 = nn.Linear(hidden1, hidden2)
        self.linear3 = nn.Linear(hidden2, 1)

    def forward(self, x):
        x = torch.relu(self.linear1(x))
        x = torch.relu(self.linear2(x))
        return torch.sigmoid(self.linear3(x))


def build(hidden1=2, seed=1):
    torch.manual_seed(seed)
    return SmallNet(hidden1=hidden1)


def train_step(model, batch, optimizer, loss_fn):
    x, y = batch
    model.train()
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss


def make_target():
    return {
        "model": build(),
        "batch": (normalize(SAMPLES), LABELS),
        "loss_fn": nn.BCELoss(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.1),
        "train_step": train_step,
        "metric_fn": lambda out, y: ((out > 0.5).float() == y).float().mean().item(),
        "train_data": (normalize(SAMPLES), LABELS),
    }
