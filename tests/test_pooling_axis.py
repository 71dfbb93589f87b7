"""shape_audit: softmax weights that a weighted sum contracts over another axis than they were normalised
over. Additive-attention pooling whose weights (B, T, H) are normalised over the heads and then summed over
the tokens gives a sum that grows with T; the same pooling normalised over the tokens, a weighted sum that
divides by the weights' own sum, plain attention and a masked sum of per-atom distributions are healthy."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from debug_agent.schemas import Target

from .test_probes_blindspots import run


class HeadPool(nn.Module):
    """Pools T tokens into one vector per head with learned weights; `axis` is the softmax's axis."""

    def __init__(self, style: str, d: int = 16, heads: int = 4) -> None:
        super().__init__()
        self.style, self.h = style, heads
        self.score, self.out = nn.Linear(d, heads), nn.Linear(d, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # x: (B, T, D)
        b, t, d = x.shape
        values = x.view(b, t, self.h, d // self.h)  # (B, T, H, D/H)
        scores = self.score(x)  # (B, T, H)
        if self.style == "over_heads_einsum":  # normalised over H, summed over T
            pooled = torch.einsum("bth,bthd->bhd", scores.softmax(-1), values)
        elif self.style == "over_heads_mul":
            pooled = (scores.softmax(dim=-1).unsqueeze(-1) * values).sum(1)
        elif self.style == "over_tokens":
            pooled = torch.einsum("bth,bthd->bhd", scores.softmax(1), values)
        elif self.style == "renormalised":  # slot-attention style: divide by the weights' sum over T
            w = scores.softmax(-1).transpose(1, 2)  # (B, H, T)
            pooled = (w @ x / w.sum(-1, keepdim=True)).view(b, self.h, d)[:, :, : d // self.h]
        elif self.style == "attention":
            att = torch.softmax(x @ x.transpose(1, 2) / d**0.5, dim=-1)  # (B, T, T)
            pooled = (att @ x).view(b, t, self.h, d // self.h).mean(1)
        else:  # a masked sum of per-token distributions (a fingerprint), no weighted values
            mask = (x.abs().sum(-1, keepdim=True) > 0).float()  # (B, T, 1)
            pooled = (scores.softmax(-1) * mask).sum(1).unsqueeze(-1).expand(b, self.h, d // self.h)
        return self.out(pooled.reshape(b, -1)[:, : x.shape[-1]])


def _audit(style: str):
    g = torch.Generator().manual_seed(0)
    x, y = torch.randn(8, 10, 16, generator=g), torch.randint(0, 3, (8,), generator=g)
    return run("shape_audit", Target(model=HeadPool(style), batch=(x, y), loss_fn=nn.CrossEntropyLoss()))


@pytest.mark.parametrize("style", ["over_heads_einsum", "over_heads_mul"])
def test_weights_normalised_over_heads_and_summed_over_tokens_are_flagged(style: str):
    result = _audit(style)
    assert result.status == "failed" and "weights_summed_off_axis" in result.outcomes, result.summary
    assert "normalised over axis 2, summed over axis 1" in result.findings[0].text


@pytest.mark.parametrize("style", ["over_tokens", "renormalised", "attention", "fingerprint"])
def test_weighted_averages_and_sums_of_weights_pass(style: str):
    result = _audit(style)
    assert result.status == "passed" and "weights_summed_off_axis" not in result.outcomes, result.summary
