"""The scale of the signal through a stack of weighted layers: a forward signal that collapses or grows with depth.

Used by the activations probe. Holds hooks and arithmetic only. May import: torch, schemas.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from debug_agent.schemas import Finding

WEIGHTED = (nn.Linear, nn.Conv1d, nn.Conv2d, nn.Conv3d)
COLLAPSE = 1e-3  # a later layer's output RMS this far below the first layer's: the signal has all but vanished
# A later layer's output RMS this far above the first layer's at initialisation: unnormalised residual branches
# adding up (x + f(x) with gains above 1). Healthy stacks with normalisation, or scaled branches, stay within ~4x.
GROWTH = 10.0
MIN_LAYERS = 4


def watch_output_scale(model: nn.Module) -> tuple[list[Any], dict[str, float]]:
    """Forward hooks noting name -> output RMS of each weighted layer with non-zero weights, in first-call order.

    A layer called many times (an RNN cell's projection, one call per time step) keeps its largest RMS, and a
    call on an all-zero input (an initial zero state) is skipped: a collapse is small on every call. A
    zero-initialised layer (a ReZero or adaLN-Zero branch, a zero head) outputs nothing by design: left out."""
    seen: dict[str, float] = {}

    def hook_for(name: str) -> Any:
        def hook(mod: nn.Module, args: Any, out: Any) -> None:
            x = args[0] if args else None
            if not isinstance(out, torch.Tensor) or not out.is_floating_point() or not out.numel():
                return
            if not isinstance(x, torch.Tensor) or not bool(x.detach().any()) or not bool(mod.weight.detach().any()):
                return
            rms = float(out.detach().float().pow(2).mean().sqrt())
            seen[name] = max(seen.get(name, 0.0), rms)

        return hook

    handles = [m.register_forward_hook(hook_for(n)) for n, m in model.named_modules() if isinstance(m, WEIGHTED)]
    return handles, seen


def signal_collapse(scales: dict[str, float], meas: dict[str, Any]) -> Finding | None:
    """A finding when some later layer's output RMS is under COLLAPSE times the first layer's (>= 4 layers).

    Each layer's weight gradient is its input times the gradient arriving at its output; when the forward
    signal shrinks geometrically so does the backward one, so every layer's gradient is tiny at once and
    the first/last ratio of gradient norms stays near 1: this reading catches what that ratio cannot."""
    seen = list(scales.items())
    if len(seen) < MIN_LAYERS or seen[0][1] <= 0:
        return None
    name, low = min(seen[1:], key=lambda t: t[1])
    ratio = low / seen[0][1]
    meas["depth_signal_ratio"] = float(f"{ratio:.3g}")
    if ratio >= COLLAPSE:
        return None
    return Finding(
        text=f"the signal collapses through depth: {name}'s output RMS {low:.2g} is {ratio:.1e} of "
        f"{seen[0][0]}'s ({seen[0][1]:.2g}), so every layer's gradient is tiny (initial scale too small "
        "for the depth, no normalisation or skip path)"
    )


def signal_growth(scales: dict[str, float], meas: dict[str, Any]) -> Finding | None:
    """A finding when some later layer's output RMS is GROWTH times the first layer's or more (>= 4 layers).

    The backward pass runs through the same gains: a signal that grows geometrically with depth at
    initialisation gives gradients, and steps, that grow with it, and training that blows up later."""
    seen = list(scales.items())
    if len(seen) < MIN_LAYERS or seen[0][1] <= 0:
        return None
    name, high = max(seen[1:], key=lambda t: t[1])
    ratio = high / seen[0][1]
    meas["depth_signal_growth"] = float(f"{ratio:.3g}")
    if ratio < GROWTH:
        return None
    return Finding(
        text=f"the signal grows through depth: {name}'s output RMS {high:.2g} is {ratio:.0f}x {seen[0][0]}'s "
        f"({seen[0][1]:.2g}) at initialisation, so gradients grow with it (no normalisation in the stack, "
        "residual branches that add up)"
    )


def with_depth_signal(
    flow: list[str], scales: dict[str, float], into: tuple[list[Finding], dict[str, Any]]
) -> list[str]:
    """The gradient-flow outcomes, with a collapsing signal read as vanishing gradients and a growing one as
    `signal_grows` (neither is healthy flow)."""
    findings, meas = into
    if (collapse := signal_collapse(scales, meas)) is not None:
        findings.append(collapse)
        return [o for o in flow if o not in ("healthy_grad_flow", "vanishing_grads")] + ["vanishing_grads"]
    if (growth := signal_growth(scales, meas)) is not None:
        findings.append(growth)
        return [o for o in flow if o != "healthy_grad_flow"] + ["signal_grows"]
    return flow
