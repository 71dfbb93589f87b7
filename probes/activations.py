"""activations: dead or saturated units per layer, and how gradient norms change through depth and time."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field
from torch import nn
from torch.overrides import TorchFunctionMode

from debug_agent.errors import CopyNotIsolated
from debug_agent.schemas import Finding, ProbeResult, Target

from ._common import (
    clone_batch,
    copy_model,
    display_path,
    forward,
    main_tensor,
    make_optimizer,
    user_frame,
    watch_modules,
)
from ._depth import watch_output_scale, with_depth_signal
from .registry import ProbeContext, probe

RECTIFIERS = {"relu", "relu_", "relu6", "hardtanh", "hardtanh_"}
# Smooth rectifiers: a unit is dead when its input sits deep in the flat negative tail for every example.
# Softplus is left out: it mostly makes a quantity positive (a scale, a state-space model's step size, whose
# initialisation puts inputs near log(0.01) on purpose), where the tail is the intended regime.
SMOOTH = {"gelu", "silu", "silu_", "mish", "mish_", "elu", "elu_", "selu", "selu_", "celu", "hardswish"}
SQUASHERS = {"sigmoid", "tanh", "sigmoid_", "tanh_"}
TAIL = -3.0  # GELU/SiLU/Mish give about 0 and slope under 0.1 below this; ELU's slope is e^-3
RECURRENT = (nn.RNNBase,)
MIN_EXAMPLES = 4  # a unit off on all of them is dead with chance below 1/16 for a healthy ReLU
RNN_SHARE = 0.9  # a recurrent unit counts as saturated when it is on 90% of (example, step) entries


class ActivationsOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    dead: float = Field(default=0.5, gt=0, le=1, description="fraction of dead units that flags a layer")
    saturated: float = Field(default=0.5, gt=0, le=1, description="fraction of saturated units that flags a layer")
    vanish: float = Field(
        default=1e-3, gt=0, description="first/last layer gradient ratio below which gradients vanish"
    )
    explode: float = Field(default=1e2, gt=1, description="first/last gradient ratio above which they explode")
    step_size: float = Field(
        default=1.0, gt=0, description="share of its weights one plain-SGD step may move a layer before it explodes"
    )


@dataclass
class _Site:
    kind: str  # rectifier | squasher
    op: str
    where: str
    code: str
    dead: list[float] = field(default_factory=list)  # fraction of units never active / saturated, per call
    share: float = 1.0  # the share of examples on which a unit must be off to count


@dataclass
class _Recorder(TorchFunctionMode):
    """Notes the output of every activation op (functional and module alike) per call site."""

    batch: int
    sites: dict[str, _Site] = field(default_factory=dict)
    busy: bool = False  # inside our own hook: its ops are not the user's activations

    def __post_init__(self) -> None:
        super().__init__()

    def __torch_function__(self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: Any = None) -> Any:
        out = func(*args, **(kwargs or {}))
        name = getattr(func, "__name__", "")
        if self.busy:
            return out
        if (name in RECTIFIERS or name in SQUASHERS or name in SMOOTH) and isinstance(out, torch.Tensor):
            x = args[0] if args else (kwargs or {}).get("input")
            if name in SMOOTH and isinstance(x, torch.Tensor) and x.shape == out.shape:
                self._note(name, x.detach(), "smooth")
            elif name not in SMOOTH:
                self._note(name, out.detach(), "rectifier" if name in RECTIFIERS else "squasher")
        return out

    def _note(self, name: str, t: torch.Tensor, kind: str) -> None:
        units = _units(t, self.batch)
        if units is None:
            return
        frame = user_frame()
        where = f"{display_path(frame[0])}:{frame[1]}" if frame else name
        self.mark(where, frame[2] if frame else "", name.rstrip("_"), kind, units)

    def mark(self, where: str, code: str, op: str, kind: str, units: torch.Tensor, share: float = 1.0) -> None:
        """units: (examples, units). Note the fraction of units dead/saturated on at least `share` of the examples.
        Under MIN_EXAMPLES rows nothing is noted: a healthy ReLU unit is 0 on one example half the time."""
        if units.shape[0] < MIN_EXAMPLES:
            return
        site = self.sites.setdefault(where, _Site(kind, op, where, code, share=share))
        if kind == "rectifier":
            off = units <= 0
        elif kind == "smooth":
            off = units < TAIL
        elif op == "sigmoid":
            off = (units < 0.01) | (units > 0.99)
        else:
            off = units.abs() > 0.99
        inactive = off.all(dim=0) if share >= 1.0 else off.float().mean(dim=0) >= share
        site.dead.append(float(inactive.float().mean()))

    def recurrent_hook(self, name: str) -> Any:
        """Forward hook on an RNN/LSTM/GRU: its gates (one-layer LSTM/GRU) or else its outputs."""

        def hook(m: nn.Module, args: tuple[Any, ...], out: Any) -> None:
            self.busy = True
            try:
                self._recurrent(name, m, args, out)
            finally:
                self.busy = False

        return hook

    def _recurrent(self, name: str, m: nn.Module, args: tuple[Any, ...], out: Any) -> None:
        gates = _gates(m, args, out)
        for gate, units in gates:
            op = "tanh" if "cand" in gate else "sigmoid"
            self.mark(f"{name} {gate}", "", op, "squasher", units.detach(), share=RNN_SHARE)
        seq = out[0] if isinstance(out, tuple) else out
        if not gates and isinstance(seq, torch.Tensor) and seq.dim() == 3:
            relu = getattr(m, "nonlinearity", "tanh") == "relu"
            flat = seq.detach().reshape(-1, seq.shape[-1])  # (T*B, hidden): every step is an example
            self.mark(
                f"{name} outputs", "", "relu" if relu else "tanh", "rectifier" if relu else "squasher", flat, RNN_SHARE
            )


def _units(t: torch.Tensor, batch: int) -> torch.Tensor | None:
    """(B, units): every non-batch element is a unit. The batch axis is 0, or the first of size B."""
    if t.dim() < 2 or t.numel() < batch or batch not in t.shape:  # (B, 1) is one unit
        return None
    axis = 0 if t.shape[0] == batch else list(t.shape).index(batch)
    return t.movedim(axis, 0).reshape(batch, -1)


def _gates(m: nn.Module, args: tuple[Any, ...], out: Any) -> list[tuple[str, torch.Tensor]]:
    """Gate activations of a one-layer, one-direction LSTM/GRU, recomputed from its weights: [(name, (T*B, units))].

    The hidden state before each step is the layer's own output shifted by one step, so the gates
    are recomputed exactly without running the cell again.
    """
    if not isinstance(m, (nn.LSTM, nn.GRU)) or m.num_layers != 1 or m.bidirectional or getattr(m, "proj_size", 0):
        return []
    x, seq = args[0], out[0] if isinstance(out, tuple) else out
    if not isinstance(x, torch.Tensor) or not isinstance(seq, torch.Tensor) or x.dim() != 3:
        return []
    if m.batch_first:
        x, seq = x.transpose(0, 1), seq.transpose(0, 1)  # (T, B, .)
    h0 = args[1] if len(args) > 1 and args[1] is not None else None
    h0 = (h0[0] if isinstance(h0, tuple) else h0) if h0 is not None else torch.zeros_like(seq[:1])
    h_prev = torch.cat([h0.reshape(1, *seq.shape[1:]), seq[:-1]], dim=0)
    with torch.no_grad():
        wx = nn.functional.linear(x, m.weight_ih_l0, m.bias_ih_l0 if m.bias else None)
        wh = nn.functional.linear(h_prev, m.weight_hh_l0, m.bias_hh_l0 if m.bias else None)
    H = m.hidden_size
    if isinstance(m, nn.LSTM):
        pre = wx + wh
        i, f, g, o = pre.split(H, dim=-1)
        named = [("input gate", i.sigmoid()), ("forget gate", f.sigmoid()), ("cell candidate", g.tanh())]
        named.append(("output gate", o.sigmoid()))
    else:
        rx, zx, nx = wx.split(H, dim=-1)
        rh, zh, nh = wh.split(H, dim=-1)
        r = (rx + rh).sigmoid()
        named = [("reset gate", r), ("update gate", (zx + zh).sigmoid()), ("candidate", (nx + r * nh).tanh())]
    return [(n, t.reshape(-1, H)) for n, t in named]


def _layer_grads(model: nn.Module, order: list[str]) -> list[tuple[str, float, float, bool]]:
    """(name, RMS gradient, RMS gradient / RMS weight, all-zero weight) of each weighted layer, in call order.

    An embedding table's ratio is left at 0: its rows start tiny by convention (std 0.02 or less) and
    gather the gradient of every occurrence, so a large ratio there says nothing about the step size.
    So is a zero-initialised layer's (a zero head, an adaLN-Zero or ReZero branch): any gradient is
    infinitely larger than no weight, and that start is deliberate."""
    out = []
    mods = dict(model.named_modules())
    for name in order:
        w = getattr(mods[name], "weight", None)
        if isinstance(w, nn.Parameter) and w.grad is not None and w.dim() >= 2:
            g = float(w.grad.detach().pow(2).mean().sqrt())
            w_rms = float(w.detach().pow(2).mean().sqrt())
            ratio = 0.0 if isinstance(mods[name], nn.Embedding) or w_rms == 0 else g / w_rms
            out.append((name, g, ratio, w_rms == 0))
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
        "step_too_large",
        "signal_grows",
    ),
    cost=2.0,
    options=ActivationsOptions,
)
def activations(target: Target, ctx: ProbeContext, options: ActivationsOptions) -> ProbeResult:
    """Per-layer activation statistics and gradient norms on the batch (dead/saturated units, vanishing/exploding).

    A ReLU unit is dead when it outputs 0 for every example of the batch (GELU, SiLU, Mish, ELU: when its
    input lies below -3 for every example); a sigmoid/tanh unit is saturated when it sits within 1% of its
    bounds for every example. One-layer LSTM/GRU gates are recomputed from the layer's weights and judged
    the same way (other recurrent layers by their outputs). With no activation op at all, activation health
    is untested: no outcome, status inconclusive. Layers with more than half of their units dead or
    saturated are flagged, with the activation's source line. Gradient flow: the RMS gradient of the first
    weighted layer over that of the last; below 1e-3 gradients vanish, above 1e3 they explode. A forward
    signal that collapses through depth (a later weighted layer's output RMS under 1e-3 of the first's)
    makes every gradient tiny at once: vanishing too; one that grows (10x the first's or more) is
    `signal_grows`. Recurrent layers: the same ratio between the gradients reaching the first and last step.
    """
    model = copy_model(target).train()
    # Gradient flow is a property of the layers, not of which ones the user froze: on our copy every
    # weight gets a gradient, so a frozen head or embedding does not move the ends of the depth ratio.
    model.requires_grad_(True)
    inputs, targets = clone_batch(target.batch)
    order: list[str] = []
    hooks = watch_modules(model, lambda n, mod: order.append(n) if n and n not in order else None)
    steps: list[tuple[torch.Tensor, bool, bool]] = []  # (input leaf of the first recurrent layer, batch_first)
    rec = _Recorder(batch=target.batch_size)
    scale_hooks, scales = watch_output_scale(model)
    recurrent = [(n, m) for n, m in model.named_modules() if isinstance(m, RECURRENT)]
    hooks += [m.register_forward_pre_hook(_time_leaf(steps)) for _, m in recurrent] + scale_hooks
    hooks += [m.register_forward_hook(rec.recurrent_hook(n or "rnn")) for n, m in recurrent]
    with rec:
        out = forward(target, model, inputs)
        loss = target.loss_fn(out, targets) if target.loss_fn is not None else main_tensor(out).pow(2).mean()
    for h in hooks:
        h.remove()
    meas: dict[str, Any] = {"layers_seen": len(rec.sites), "sites": sorted(rec.sites)[:20]}
    outcomes, findings = _sites(rec.sites, options, meas)
    if loss.requires_grad and torch.isfinite(loss).item():
        loss.backward()
        layers = _layer_grads(model, order)
        meas["layer_grad_rms"] = [[n, float(f"{g:.3g}")] for n, g, _, _ in layers]
        flow = _flow(layers, steps, options, (findings, meas), _sgd_step(target, model))
        outcomes += with_depth_signal(flow, scales, (findings, meas))
    status, summary = _verdict(outcomes, findings, len(rec.sites), target.batch_size)
    return ProbeResult(
        name="activations", status=status, outcomes=outcomes, findings=findings, measurements=meas, summary=summary
    )


HEALTHY = frozenset({"healthy_activations", "healthy_grad_flow"})  # every other outcome is a defect


def _verdict(outcomes: list[str], findings: list[Finding], sites: int, batch_size: int) -> tuple[str, str]:
    """(status, summary): failed on any defect, else passed when activation sites were judged."""
    bad = set(outcomes) - HEALTHY
    if bad:
        return "failed", "; ".join(f.text for f in findings[:2])
    if sites:
        return "passed", f"activations and gradient flow look healthy over {sites} activation site(s)"
    seen = (
        f"activations ran on fewer than {MIN_EXAMPLES} examples (too few to call a unit dead)"
        if batch_size < MIN_EXAMPLES
        else "no activation op seen in forward (none of ReLU, GELU, SiLU, ELU, sigmoid, tanh or a recurrent layer)"
    )
    healthy_flow = "; gradient flow looks healthy" if outcomes else ""
    return "inconclusive", f"{seen}, so dead or saturated units are untested{healthy_flow}"


def _sites(
    sites: dict[str, _Site], options: ActivationsOptions, meas: dict[str, Any]
) -> tuple[list[str], list[Finding]]:
    """Outcomes and findings for the activation sites; none at all is no evidence either way."""
    dead_layers, sat_layers = [], []
    meas["dead_fraction"] = 0.0
    for site in sites.values():
        frac = max(site.dead)
        if site.kind in ("rectifier", "smooth"):
            meas["dead_fraction"] = max(meas["dead_fraction"], round(frac, 4))
            if frac > options.dead:
                dead_layers.append(site)
        else:
            meas["saturated_fraction"] = max(meas.get("saturated_fraction", 0.0), round(frac, 4))
            if frac > options.saturated:
                sat_layers.append(site)
    findings = []
    for s in dead_layers + sat_layers:
        after = f"after `{s.op}`" if ":" in s.where or s.where == s.op else f"of {s.where} (`{s.op}`)"
        state = {
            "rectifier": "are 0 for every example (dead)",
            "smooth": f"get inputs below {TAIL:g} for every example (dead: flat tail)",
        }.get(s.kind, "are saturated for every example")
        if s.share < 1.0:
            state = state.replace("for every example", f"on {s.share:.0%} of examples and steps")
        findings.append(
            Finding(
                text=f"{max(s.dead):.0%} of the units {after} {state}",
                where=s.where if ":" in s.where else None,
                code=s.code or None,
            )
        )
    outcomes = (["dead_units"] if dead_layers else []) + (["saturated_units"] if sat_layers else [])
    if sites and not outcomes:
        outcomes.append("healthy_activations")
    return outcomes, findings


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
    layers: list[tuple[str, float, float, bool]],
    steps: list[tuple[torch.Tensor, bool, bool]],
    opts: ActivationsOptions,
    into: tuple[list[Finding], dict[str, Any]],
    sgd_step: float | None,
) -> list[str]:
    findings, meas = into
    ratios = []
    zero = [n for n, _, _, z in layers[1:] if z]
    if len(layers) >= 3 and layers[0][1] == 0 and zero:
        # A zero-initialised layer passes no gradient back at the first step: that is its start, not shrinkage.
        findings.append(Finding(text=f"zero-initialised {zero[0]} passes no gradient back yet: depth flow untested"))
    elif len(layers) >= 3 and layers[-1][1] > 0:
        ratios.append(("depth", layers[0][0], layers[-1][0], layers[0][1] / layers[-1][1]))
    step = max((r for _, _, r, _ in layers), default=0.0)
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
    # A step bigger than the weights is the learning rate's doing as much as the gradient's: its own outcome.
    if sgd_step is not None and step * sgd_step > opts.step_size:
        name = max(layers, key=lambda t: t[2])[0]
        meas["max_step_to_weight"] = float(f"{step * sgd_step:.3g}")
        findings.append(
            Finding(
                text=f"the gradient of layer {name} is {step:.0f}x its weights: one SGD step (lr x 1/(1 - momentum) "
                f"= {sgd_step:.3g}) moves it by {step * sgd_step:.1f}x its own size"
            )
        )
        out.append("step_too_large")
    if not out and (ratios or layers):
        out.append("healthy_grad_flow")
    return sorted(set(out), key=out.index)


def _sgd_step(target: Target, model: nn.Module) -> float | None:
    """What one step of the target's optimizer multiplies a gradient by: lr / (1 - momentum) for plain SGD.

    None for optimizers that normalise the gradient (Adam, RMSprop, Adagrad...: their step is about lr
    whatever the gradient's size, so a large gradient-to-weight ratio wipes nothing out), for the default
    optimizer, and when no optimizer can be built on our copy (the other probes say why)."""
    if target.optimizer is None:
        return None
    try:
        opt = make_optimizer(target, model)
    except (CopyNotIsolated, TypeError, ValueError):
        return None
    if not isinstance(opt, torch.optim.SGD):
        return None
    group = opt.param_groups[0]
    momentum = float(group.get("momentum") or 0.0)
    return float(group["lr"]) / (1.0 - momentum) if momentum < 1 else None
