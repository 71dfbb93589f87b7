"""Small noise-prediction (diffusion-style) model with a mixed-precision switch in the training step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BFLOAT_ENABLE = True  # default in the run config


class TinyDenoiser(nn.Module):
    def __init__(self, dim=16, hidden=64, n_steps=100):
        super().__init__()
        self.t_emb = nn.Embedding(n_steps, hidden)
        self.inp = nn.Linear(dim, hidden)
        self.mid = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, dim)

    def forward(self, x_t, t):
        h = F.silu(self.inp(x_t) + self.t_emb(t))
        h = F.silu(self.mid(h))
        return self.out(h)


def noise_mse(pred, eps):
    return F.mse_loss(pred.float(), eps)


def train_step(model, batch, opt, loss_fn):
    (x_t, t), eps = batch
    model.train()
    with torch.autocast("cpu", enabled=BFLOAT_ENABLE, dtype=torch.bfloat16):
        loss = loss_fn(model(x_t, t), eps)
    if not BFLOAT_ENABLE:
        opt.zero_grad()
        loss.backward()
        opt.step()
    else:
        loss.backward()
        opt.step()
    return loss.detach()


def make_batch(g, n=32, dim=16, n_steps=100):
    x0 = torch.randn(n, dim, generator=g)
    t = torch.randint(0, n_steps, (n,), generator=g)
    alpha = 1.0 - t.float().unsqueeze(1) / n_steps
    eps = torch.randn(n, dim, generator=g)
    x_t = alpha.sqrt() * x0 + (1 - alpha).sqrt() * eps
    return (x_t, t), eps


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    return {
        "model": TinyDenoiser(),
        "batch": make_batch(g),
        "loss_fn": noise_mse,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=1e-4, weight_decay=0.0),
        "train_step": train_step,
        "train_data": [make_batch(g) for _ in range(8)],
    }
