"""Class-conditional flow matching on a 4-cluster toy set; the minibatch pairing shuffles x1 but not y."""

import torch
import torch.nn as nn

CENTERS = torch.tensor([[4.0, 0.0], [0.0, 4.0], [-4.0, 0.0], [0.0, -4.0]])


class VectorField(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(4, 16)
        self.net = nn.Sequential(nn.Linear(2 + 1 + 16, 128), nn.SiLU(), nn.Linear(128, 128), nn.SiLU(),
                                 nn.Linear(128, 2))

    def forward(self, t, xt, y):
        return self.net(torch.cat([xt, t[:, None], self.emb(y)], -1))


def make_data(g, n):
    y = torch.randint(0, 4, (n,), generator=g)
    return CENTERS[y] + 0.4 * torch.randn(n, 2, generator=g), y


def pair(x0, x1, g):
    """Stand-in for the OT plan: a permutation of x1 chosen per batch."""
    perm = torch.randperm(x1.shape[0], generator=g)
    return x0, x1[perm]


def sample_location_and_conditional_flow(x0, x1, g):
    x0, x1 = pair(x0, x1, g)
    t = torch.rand(x0.shape[0], generator=g)
    xt = (1 - t[:, None]) * x0 + t[:, None] * x1
    return t, xt, x1 - x0


def train_step(model, batch, optimizer, loss_fn=None):
    (x1, y), g = batch, torch.Generator().manual_seed(int(torch.randint(0, 10**6, (1,))))
    x0 = torch.randn(x1.shape, generator=g)
    t, xt, ut = sample_location_and_conditional_flow(x0, x1, g)
    optimizer.zero_grad()
    loss = ((model(t, xt, y) - ut) ** 2).mean()
    loss.backward()
    optimizer.step()
    return loss


def make_target():
    torch.manual_seed(0)
    x1, y = make_data(torch.Generator().manual_seed(0), 256)
    t = torch.full((256,), 0.5)
    return {"model": VectorField(), "batch": ((t, x1, y), x1),
            "loss_fn": lambda out, tgt: ((out - tgt) ** 2).mean(),
            "optimizer": lambda p: torch.optim.Adam(p, lr=2e-3)}
