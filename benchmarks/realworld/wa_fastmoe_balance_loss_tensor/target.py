"""Two-layer top-1 mixture-of-experts classifier with a switch-style load-balancing loss.

Each MoE layer returns its balance loss with its output; the model hands the per-layer list to the
training loss, which adds their mean, scaled by BALANCE_COEF, to the task loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

D, N_EXPERTS, N_CLASSES = 16, 4, 5
BALANCE_COEF = 1.0


class MoELayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.gate = nn.Linear(D, N_EXPERTS)
        self.experts = nn.ModuleList(nn.Sequential(nn.Linear(D, 32), nn.ReLU(), nn.Linear(32, D))
                                     for _ in range(N_EXPERTS))

    def forward(self, x):
        probs = F.softmax(self.gate(x), -1)                       # (n, E)
        top_p, top_i = probs.max(-1)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            sel = top_i == e
            if sel.any():
                out[sel] = top_p[sel, None] * expert(x[sel])
        frac_tokens = F.one_hot(top_i, N_EXPERTS).float().mean(0)   # f_e
        mean_prob = probs.mean(0)                                   # P_e
        balance = N_EXPERTS * (frac_tokens * mean_prob).sum()
        return x + out, balance


class MoENet(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(8, D)
        self.moe = nn.ModuleList([MoELayer(), MoELayer()])
        self.out = nn.Linear(D, N_CLASSES)

    def forward(self, x):
        h = self.inp(x)
        losses = []
        for layer in self.moe:
            h, bal = layer(h)
            losses.append(bal)
        return self.out(h), losses


def balance_loss(loss_list):
    return torch.tensor(loss_list).mean()


def loss_fn(output, y):
    logits, loss_list = output
    return F.cross_entropy(logits, y) + BALANCE_COEF * balance_loss(loss_list)


def make_data(n=128, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 8, generator=g)
    x[:, 0] += 3.0                      # a shifted input so the initial router is lopsided
    y = (x[:, 1:4].sum(1) > 0).long() + 2 * (x[:, 4] > 0.5).long()
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = make_data()
    return {
        "model": MoENet(),
        "batch": (x, y),
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "val_data": [make_data(seed=1)],
    }
