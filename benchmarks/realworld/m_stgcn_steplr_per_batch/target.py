"""STGCN-like spatio-temporal regressor with a StepLR schedule meant per epoch, stepped inside the batch loop."""

import torch
from torch import nn


class TinySTNet(nn.Module):
    """Temporal layer over the input window per node, then a graph mixing step, then a linear read-out."""

    def __init__(self, n_nodes=8, n_hist=12, hidden=16):
        super().__init__()
        self.temporal = nn.Linear(n_hist, hidden)  # temporal block, shared over nodes
        self.node_mix = nn.Linear(n_nodes, n_nodes, bias=False)  # graph mixing
        self.readout = nn.Linear(hidden, 1)
        self.n_nodes, self.n_hist, self.hidden = n_nodes, n_hist, hidden

    def forward(self, x):  # x: (B, T, N)
        h = torch.relu(self.temporal(x.transpose(1, 2)))  # (B, N, H)
        h = self.node_mix(h.transpose(1, 2)).transpose(1, 2)  # mix neighbouring nodes
        return self.readout(torch.tanh(h)).squeeze(-1)  # (B, N)


def make_series(n_samples=1200, n_nodes=8, n_hist=12, seed=0):
    g = torch.Generator().manual_seed(seed)
    total = n_samples + n_hist + 1
    tt = torch.arange(total, dtype=torch.float32)
    phase = torch.rand(n_nodes, generator=g) * 6.28
    base = torch.sin(tt[:, None] * 0.21 + phase) + 0.5 * torch.sin(tt[:, None] * 0.05 + 2 * phase)
    series = base + 0.1 * torch.randn(total, n_nodes, generator=g)
    xs = torch.stack([series[i:i + n_hist] for i in range(n_samples)])
    ys = torch.stack([series[i + n_hist] for i in range(n_samples)])
    return xs, ys


def make_optimizer(params):
    opt = torch.optim.Adam(params, lr=1e-3)
    # the paper's schedule: decay by 0.95 every 10 epochs
    opt.scheduler = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.95)
    return opt


def train_step(model, batch, optimizer, loss_fn):
    x, y = batch
    model.train()
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    optimizer.scheduler.step()
    return loss.item()


def make_target():
    torch.manual_seed(0)
    xs, ys = make_series()
    n_train = 960
    train = torch.utils.data.TensorDataset(xs[:n_train], ys[:n_train])
    loader = torch.utils.data.DataLoader(train, batch_size=8, shuffle=True,
                                         generator=torch.Generator().manual_seed(0))
    model = TinySTNet()
    return {
        "model": model,
        "batch": (xs[:8], ys[:8]),
        "loss_fn": nn.MSELoss(),
        "optimizer": make_optimizer,
        "train_step": train_step,
        "train_data": loader,
        "val_data": (xs[n_train:], ys[n_train:]),
    }
