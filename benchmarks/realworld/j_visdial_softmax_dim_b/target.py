"""Answer-option ranking: encode a question, score each of the candidate answers, log-softmax, NLL on the true option."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_OPT, DIM = 10, 16


class DiscriminativeDecoder(nn.Module):
    def __init__(self, dim=DIM):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, dim))
        self.opt_enc = nn.Linear(dim, dim)

    def forward(self, inputs):
        question, options = inputs[:, 0], inputs[:, 1:]  # (B, D), (B, N_OPT, D)
        scores = (self.opt_enc(options) * self.enc(question)[:, None, :]).sum(-1)  # (B, N_OPT)
        return F.log_softmax(scores, dim=0)


def dialogs(n, seed):
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(n, DIM, generator=g)
    opts = torch.randn(n, N_OPT, DIM, generator=g)
    y = torch.randint(0, N_OPT, (n,), generator=g)
    opts[torch.arange(n), y] = q + 0.5 * torch.randn(n, DIM, generator=g)
    return torch.cat([q[:, None], opts], 1), y


def make_target():
    torch.manual_seed(0)
    return {
        "model": DiscriminativeDecoder(),
        "batch": dialogs(32, 1),
        "loss_fn": nn.NLLLoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "train_data": dialogs(1024, 2),
        "val_data": dialogs(512, 3),
    }
