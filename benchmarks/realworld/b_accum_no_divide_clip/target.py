"""Tiny next-value regressor trained with gradient accumulation that forgets to scale the micro-batch loss."""
import torch
import torch.nn as nn

ACCUM_STEPS = 8
CLIP = 1.0


class TinyNet(nn.Module):
    def __init__(self, d_in=12, hidden=48):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, hidden), nn.GELU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x)


def make_optimizer(params):
    return torch.optim.AdamW(params, lr=3e-4, weight_decay=0.1)


def accumulate(model, batch, loss_fn):
    """Forward/backward over ACCUM_STEPS micro-batches; returns the summed loss."""
    x, y = batch
    total = 0.0
    for xm, ym in zip(x.chunk(ACCUM_STEPS), y.chunk(ACCUM_STEPS)):
        loss = loss_fn(model(xm), ym)
        loss.backward()  # BUG: missing `loss = loss / ACCUM_STEPS`
        total = total + loss.detach()
    return total


def train_step(model, batch, optimizer, loss_fn):
    model.train()
    optimizer.zero_grad(set_to_none=True)
    total = accumulate(model, batch, loss_fn)
    torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP)
    optimizer.step()
    return total


def make_target():
    torch.manual_seed(0)
    x = torch.randn(64, 12)
    y = (x[:, :3].sum(dim=1, keepdim=True) + 0.1 * torch.randn(64, 1))
    return {
        "model": TinyNet(),
        "batch": (x, y),
        "loss_fn": nn.MSELoss(),
        "optimizer": make_optimizer,
        "train_step": train_step,
    }
