"""accum_scale on an observed script run (`ask -- python train.py`): the step rebuilt from the run calls backward
once, so the probe compares the gradient norm the run stepped on, after k micro-batches, with one micro-batch's.

Each case has a buggy twin (losses summed) and a healthy one (each divided by k, which gets no verdict).
"""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest
import torch
from torch import nn

from debug_agent.isolation.observe import Observer
from debug_agent.schemas import Target

from .test_probes_blindspots import run

SCRIPT = Path(__file__).resolve().parent / "scripts" / "accum_loop.py"


def _target(bug: str, monkeypatch: pytest.MonkeyPatch) -> Target:
    monkeypatch.setattr("sys.argv", [SCRIPT.name, "--bug", bug])
    obs = Observer(max_steps=3)
    with obs:
        try:
            runpy.run_path(str(SCRIPT), run_name="__main__")
        except BaseException:  # noqa: BLE001 - StepLimitReached at the bound
            pass
    torch.manual_seed(0)  # the script's own model at its starting weights, and its first micro-batch
    x = torch.randn(512, 8)
    y = (x[:, 0] - x[:, 1] > 0).long()
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2))

    def one_backward_step(model, batch, optimizer, loss_fn):  # what a replay of the observed call does
        optimizer.zero_grad()
        loss_fn(model(batch[0]), batch[1]).backward()
        optimizer.step()

    return Target(
        model=model, batch=(x[:8], y[:8]), loss_fn=nn.functional.cross_entropy, train_step=one_backward_step,
        optimizer=lambda p: torch.optim.SGD(p, lr=0.05), observation=obs.observation(),
    )  # fmt: skip


@pytest.mark.parametrize(("bug", "status"), [("unscaled", "failed"), ("none", "inconclusive")])
def test_observed_accumulation_is_measured(bug: str, status: str, monkeypatch: pytest.MonkeyPatch):
    """Summed losses are found; divided ones get no verdict, since clipping before the step could hide a sum."""
    target = _target(bug, monkeypatch)
    assert target.observation is not None and target.observation.steps[0].backwards == 8
    result = run("accum_scale", target)
    assert result.status == status, (result.summary, result.measurements)
    assert result.outcomes == (["accum_unscaled"] if bug == "unscaled" else []), result.summary
