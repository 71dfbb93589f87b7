"""A plain PyTorch training loop with switchable planted bugs (tests of `ask -- python plain_loop.py`).

--bug none | no_zero_grad | eval_train_mode | reshape | shuffled_labels | frozen_head
"""

import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--bug", default="none")
parser.add_argument("--epochs", type=int, default=3)
parser.add_argument("--workers", type=int, default=0)
args = parser.parse_args()

torch.manual_seed(0)
N, D, C, T = 512, 6, 3, 4
X = torch.randn(N, T, D)
W = torch.randn(T * D, C)
Y = (X.reshape(N, -1) @ W).argmax(1)
if args.bug == "shuffled_labels":
    Y = Y[torch.randperm(N)]  # labels shuffled apart from their inputs
train = DataLoader(TensorDataset(X[:384], Y[:384]), batch_size=32, shuffle=True, num_workers=args.workers)
val = DataLoader(TensorDataset(X[384:], Y[384:]), batch_size=64)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(D, 16)
        self.drop = nn.Dropout(0.2)
        self.head = nn.Linear(16 * T, C)

    def forward(self, x):  # x: (batch, time, features)
        h = torch.relu(self.embed(x)).transpose(0, 1)  # time-major (time, batch, 16)
        h = h.cumsum(0)  # a running sum over time
        if args.bug == "reshape":
            h = h.reshape(x.shape[0], x.shape[1], -1)  # meant: h.transpose(0, 1)
        else:
            h = h.transpose(0, 1)
        return self.head(self.drop(h.reshape(x.shape[0], -1)))


model = Net()
if args.bug == "frozen_head":
    for p in model.head.parameters():
        p.requires_grad = False
opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.05, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()


def evaluate():
    if args.bug != "eval_train_mode":
        model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in val:
            correct += (model(x).argmax(1) == y).sum().item()
    model.train()
    return correct / 128


for epoch in range(args.epochs):
    for x, y in train:
        if args.bug != "no_zero_grad":
            opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
    print(f"epoch {epoch} val acc {evaluate():.3f}")
