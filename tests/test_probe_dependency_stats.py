"""dependency: statistics taken over the batch by hand (a handwritten batch norm) read as batch-statistics
coupling, not as a reshape across the batch; a model without them stays independent."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from debug_agent.schemas import Target

from .test_probes_by_design import run


class HandNorm(nn.Module):
    """Normalises each feature with the batch's own mean and variance, in eval mode too."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (B, F)
        return (x - x.mean(0, keepdim=True)) / torch.sqrt(x.var(0, unbiased=False, keepdim=True) + 1e-5)


def _net(hand_norm: bool) -> nn.Module:
    torch.manual_seed(0)
    norm = HandNorm() if hand_norm else nn.LayerNorm(16)
    return nn.Sequential(nn.Linear(8, 16), norm, nn.ReLU(), nn.Linear(16, 1))


@pytest.mark.parametrize(("hand_norm", "expected"), [(True, "batch_leak_via_norm"), (False, "batch_independent")])
def test_handwritten_batch_statistics_are_named(hand_norm, expected):
    x = torch.randn(32, 8, generator=torch.Generator().manual_seed(1))
    result = run("dependency", Target(model=_net(hand_norm), batch=(x, torch.randn(32, 1))))
    assert expected in result.outcomes, result.outcomes
    if hand_norm:
        assert "batch_leak_structured" not in result.outcomes
        # plain torch: one row's output moves when another row changes
        model = _net(True).eval()
        y = x.clone()
        y[5] += 3.0
        with torch.no_grad():
            assert not torch.allclose(model(x)[0], model(y)[0])
