"""activations: dead or saturated units per layer, and how gradient norms change through depth and time."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field
from torch import nn
from torch.overrides import TorchFunctionMode

from debug_agent.schemas import Finding, ProbeResult, Target

from ._common import clone, clone_batch, display_path, main_tensor, user_frame, watch_modules
from .registry import ProbeContext, probe

RECTIFIERS = {"relu", "relu_", "relu6", "hardtanh"}
SQUASHERS = {"sigmoid", "tanh", "sigmoid_", "tanh_"}
RECURRENT = (nn.RNNBase,)


class ActivationsOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    dead: float = Field(default=0.5, gt=0, le=1, description="fraction of dead units that flags a layer")
    saturated: float = Field(default=0.5, gt=0, le=1, description="fraction of saturated units that flags a layer")
    vanish: float = Field(
        default=1e-3, gt=0, description="first/last layer gradient ratio below which gradients vanish"
    )
    explode: float = Field(default=1e2, gt=1, description="first/last gradient ratio above which they explode")
    step_size: float = Field(default=50.0, gt=0, description="gradient/weight RMS ratio above which gradients explode")


@dataclass
class _Site:
    kind: str  # rectifier | squasher
    op: str
    where: str
    code: str
    dead: list[float] = field(default_factory=list)  # fraction of units never active / saturated, per call


@dataclass
class _Recorder(TorchFunctionMode):
    """Notes the output of every activation op (functional and module alike) per call site."""

    batch: int
    sites: dict[str, _Site] = field(default_factory=dict)

    def __post_init__(self) -> None:
        super().__init__()

    def __torch_function__(self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: Any = None) -> Any:
        out = func(*args, **(kwargs or {}))
        name = getattr(func, "__name__", "")
        if (name in RECTIFIERS or name in SQUASHERS) and isinstance(out, torch.Tensor) and out.dim() >= 2:
            if out.shape[0] == self.batch and out.numel() > self.batch:
                self._note(name, out.detach())
        return out

    def _note(self, name: str, out: torch.Tensor) -> None:
        frame = user_frame()
        where = f"{display_path(frame[0])}:{frame[1]}" if frame else name
        kind = "rectifier" if name in RECTIFIERS else "squasher"
        site = self.sites.setdefault(where, _Site(kind, name.rstrip("_"), where, frame[2] if frame else ""))
        units = out.reshape(out.shape[0], -1)  # (B, units): every non-batch element is a unit
        if kind == "rectifier":
            inactive = (units <= 0).all(dim=0)
        elif site.op == "sigmoid":
            inactive = ((units < 0.01) | (units > 0.99)).all(dim=0)
        else:
            inactive = (units.abs() > 0.99).all(dim=0)
        site.dead.append(float(inactive.float().mean()))


def _layer_grads(model: nn.Module, order: list[str]) -> list[tuple[str, float, float]]:
    """(name, RMS gradient, RMS gradient / RMS weight) of each weighted layer, in forward-call order."""
    out = []
    mods = dict(model.named_modules())
    for name in order:
        w = getattr(mods[name], "weight", None)
        if isinstance(w, nn.Parameter) and w.grad is not None and w.dim() >= 2:
            g = float(w.grad.detach().pow(2).mean().sqrt())
            out.append((name, g, g / (float(w.detach().pow(2).mean().sqrt()) + 1e-12)))
    return out


@probe(
    headline=("dead_fraction", "depth_grad_ratio", "time_grad_ratio"),
    plot="gradient_flow",
    outcomes=(
        "healthy_activations",
        "dead_units",
        "saturated_units",
        "healthy_grad_flow",
        "vanishing_grads",
        "exploding_grads",
    ),
    cost=2.0,
    options=ActivationsOptions,
)
def activations(target: Target, ctx: ProbeContext, options: ActivationsOptions) -> ProbeResult:
    """Per-layer activation statistics and gradient norms on the batch (dead/saturated units, vanishing/exploding).

    A ReLU unit is dead when it outputs 0 for every example of the batch; a sigmoid/tanh unit is
    saturated when it sits within 1% of its bounds for every example. Layers with more than half of
    their units dead or saturated are flagged, with the source line of the activation. Gradient flow:
    the RMS gradient of the first weighted layer over that of the last; below 1e-3 gradients vanish,
    above 1e3 they explode. For recurrent layers the same ratio is taken between the gradients that
    reach the first and the last time step.
    """
    model = clone(target.model).train()
    inputs, targets = clone_batch(target.batch)
    order: list[str] = []
    hooks = watch_modules(model, lambda n, mod: order.append(n) if n and n not in order else None)
    steps: list[tuple[torch.Tensor, bool, bool]] = []  # (input leaf of the first recurrent layer, batch_first)
    for m in model.modules():
        if isinstance(m, RECURRENT):
            hooks.append(m.register_forward_pre_hook(_time_leaf(steps)))
    rec = _Recorder(batch=target.batch_size)
    with rec:
        out = model(*inputs)
        loss = target.loss_fn(out, targets) if target.loss_fn is not None else main_tensor(out).pow(2).mean()
    for h in hooks:
        h.remove()
    outcomes: list[str] = []
    findings: list[Finding] = []
    meas: dict[str, Any] = {"layers_seen": len(rec.sites)}
    dead_layers, sat_layers = [], []
    for site in rec.sites.values():
        frac = max(site.dead)
        meas.setdefault("dead_fraction", 0.0)
        if site.kind == "rectifier":
            meas["dead_fraction"] = max(meas["dead_fraction"], round(frac, 4))
            if frac > options.dead:
                dead_layers.append(site)
        elif frac > options.saturated:
            sat_layers.append(site)
    for s in dead_layers:
        findings.append(
            Finding(
                text=f"{s.dead[0]:.0%} of the units after `{s.op}` are 0 for every example (dead)",
                where=s.where if ":" in s.where else None,
                code=s.code or None,
            )
        )
    for s in sat_layers:
        findings.append(
            Finding(
                text=f"{max(s.dead):.0%} of the units after `{s.op}` are saturated for every example",
                where=s.where if ":" in s.where else None,
                code=s.code or None,
            )
        )
    outcomes += (["dead_units"] if dead_layers else []) + (["saturated_units"] if sat_layers else [])
    if not dead_layers and not sat_layers:
        outcomes.append("healthy_activations")

    if loss.requires_grad and torch.isfinite(loss).item():
        loss.backward()
        layers = _layer_grads(model, order)
        meas["layer_grad_rms"] = [[n, float(f"{g:.3g}")] for n, g, _ in layers]
        flow = _flow(layers, steps, options, findings, meas)
        outcomes += flow
    status = (
        "failed"
        if set(outcomes) & {"dead_units", "saturated_units", "vanishing_grads", "exploding_grads"}
        else "passed"
    )
    summary = (
        "; ".join(f.text for f in findings[:2])
        if status == "failed"
        else f"activations and gradient flow look healthy over {len(rec.sites)} activation site(s)"
    )
    return ProbeResult(
        name="activations", status=status, outcomes=outcomes, findings=findings, measurements=meas, summary=summary
    )


def _time_leaf(steps: list[tuple[torch.Tensor, bool, bool]]) -> Any:
    """Pre-hook: swap a recurrent layer's input for a leaf, so we can read the gradient per time step."""

    def hook(m: nn.Module, args: tuple[Any, ...]) -> tuple[Any, ...] | None:
        x = args[0]
        if not isinstance(x, torch.Tensor) or x.dim() != 3 or steps:
            return None
        leaf = x.detach().requires_grad_(True)
        steps.append((leaf, bool(getattr(m, "batch_first", False)), isinstance(m, (nn.LSTM, nn.GRU))))
        return (leaf, *args[1:])

    return hook


def _flow(
    layers: list[tuple[str, float, float]],
    steps: list[tuple[torch.Tensor, bool, bool]],
    opts: ActivationsOptions,
    findings: list[Finding],
    meas: dict[str, Any],
) -> list[str]:
    ratios = []
    if len(layers) >= 3 and layers[-1][1] > 0:
        ratios.append(("depth", layers[0][0], layers[-1][0], layers[0][1] / layers[-1][1]))
    step = max((r for _, _, r in layers), default=0.0)
    meas["max_grad_to_weight"] = float(f"{step:.3g}")
    # Gated cells (LSTM/GRU) forget at init by design; only plain RNNs are judged through time for vanishing.
    if steps and steps[0][0].grad is not None:
        leaf, batch_first, gated = steps[0]
        g = leaf.grad.detach()  # (T, B, C) or (B, T, C)
        per_t = (g.transpose(0, 1) if batch_first else g).reshape(g.shape[1 if batch_first else 0], -1).norm(dim=1)
        if len(per_t) >= 8 and float(per_t[-1]) > 0:
            r = float(per_t[0] / per_t[-1])
            if not (gated and r < 1):
                ratios.append(("time", "the first step", "the last step", r))
    out = []
    for axis, a, b, r in ratios:
        meas[f"{axis}_grad_ratio"] = float(f"{r:.3g}")
        if r < opts.vanish:
            findings.append(Finding(text=f"gradients vanish through {axis}: {a} gets {r:.1e} of the gradient {b} gets"))
            out.append("vanishing_grads")
        elif r > opts.explode or r != r:
            findings.append(Finding(text=f"gradients explode through {axis}: {a} gets {r:.1e}x the gradient {b} gets"))
            out.append("exploding_grads")
    if step > opts.step_size and "exploding_grads" not in out:
        name = max(layers, key=lambda t: t[2])[0]
        findings.append(
            Finding(text=f"the gradient of layer {name} is {step:.0f}x its weights: one step would wipe them out")
        )
        out.append("exploding_grads")
    if not out and (ratios or layers):
        out.append("healthy_grad_flow")
    return sorted(set(out), key=out.index)
