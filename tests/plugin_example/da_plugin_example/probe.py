"""A probe: does the model's output change at all when its input changes?"""

from __future__ import annotations

import torch

from debug_agent.probes import probe
from debug_agent.schemas import ProbeResult, Target


@probe(outcomes=("output_varies", "output_constant"), cost=1.0, headline=("output_spread",))
def output_spread(target: Target, ctx: object, options: object) -> ProbeResult:
    """Output spread: forward two different batches and compare the outputs."""
    x = target.inputs[0]
    if not x.is_floating_point():
        return ProbeResult(name="output_spread", status="not_applicable", summary="integer inputs")
    with torch.no_grad():
        a = target.model(x)
        b = target.model(x + torch.randn_like(x))
    spread = float((a - b).abs().max())
    if spread == 0.0:
        return ProbeResult(
            name="output_spread",
            status="failed",
            outcomes=["output_constant"],
            summary="the output does not change when the input does",
            measurements={"output_spread": spread},
        )
    return ProbeResult(
        name="output_spread",
        status="passed",
        outcomes=["output_varies"],
        summary="the output follows the input",
        measurements={"output_spread": spread},
    )
