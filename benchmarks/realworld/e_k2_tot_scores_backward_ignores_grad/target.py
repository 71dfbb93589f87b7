"""A sequence classifier trained with a lattice-free-MMI-style objective: loss = den_tot - num_tot, where each
total score is a log-sum-exp over arcs computed by a custom autograd Function."""

import torch
import torch.nn as nn

N_ARCS = 12


class TotScores(torch.autograd.Function):
    """Total (log-sum-exp) score over the arcs allowed by `mask`."""

    @staticmethod
    def forward(ctx, arc_scores, mask):
        masked = arc_scores.masked_fill(~mask, float("-inf"))
        tot = torch.logsumexp(masked, dim=-1)
        ctx.save_for_backward(masked, tot)
        return tot

    @staticmethod
    def backward(ctx, tot_grad):
        masked, tot = ctx.saved_tensors
        arc_post = (masked - tot[:, None]).exp()  # arc posteriors
        return arc_post, None


class ArcScorer(nn.Module):
    def __init__(self, feat=20, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(feat, hidden), nn.Tanh(), nn.Linear(hidden, N_ARCS))

    def forward(self, x):
        return self.net(x)


def mmi_loss(arc_scores, num_mask):
    den_mask = torch.ones_like(num_mask)
    num_tot = TotScores.apply(arc_scores, num_mask)
    den_tot = TotScores.apply(arc_scores, den_mask)
    return (den_tot - num_tot).mean()


def _utterances(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 20, generator=g)
    w = torch.randn(20, N_ARCS, generator=torch.Generator().manual_seed(5))
    best = (x @ w).topk(2, dim=1).indices  # two arcs of the reference path
    mask = torch.zeros(n, N_ARCS, dtype=torch.bool)
    mask.scatter_(1, best, True)
    return x, mask


def make_target():
    torch.manual_seed(0)
    x, m = _utterances(512, 1)
    return {
        "model": ArcScorer(),
        "batch": (x[:64], m[:64]),
        "loss_fn": mmi_loss,
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.1),
        "train_data": (x, m),
        "val_data": _utterances(256, 2),
    }
