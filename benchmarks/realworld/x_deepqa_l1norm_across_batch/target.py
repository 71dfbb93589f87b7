"""Attention-sum style answer selection: non-negative candidate scores are L1-normalised into probabilities,
but the sum runs over the whole (batch, candidates) tensor instead of over each instance's candidates."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, K, D = 16, 6, 10


def l1_normalize(scores):
    return scores / scores.sum()  # should be scores.sum(dim=-1, keepdim=True)


class AttentionSumReader(nn.Module):
    def __init__(self):
        super().__init__()
        self.query = nn.Linear(D, D)

    def forward(self, question, candidates):  # question: (B, D), candidates: (B, K, D)
        s = torch.einsum("bd,bkd->bk", self.query(question), candidates)
        return l1_normalize(F.softplus(s))


def nll_of_probs(probs, target):
    return -torch.log(probs.gather(1, target[:, None]).squeeze(1) + 1e-12).mean()


def make_batch(g, n=B):
    cand = torch.randn(n, K, D, generator=g)
    target = torch.randint(0, K, (n,), generator=g)
    question = cand[torch.arange(n), target] + 0.3 * torch.randn(n, D, generator=g)
    return (question, cand), target


def make_target():
    torch.manual_seed(0)
    inputs, target = make_batch(torch.Generator().manual_seed(0))
    return {
        "model": AttentionSumReader(),
        "batch": (inputs, target),
        "loss_fn": nll_of_probs,
        "optimizer": lambda p: torch.optim.Adam(p, lr=0.01),
        "metric_fn": lambda probs, y: (probs.argmax(1) == y).float().mean().item(),
    }
