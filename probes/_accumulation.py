"""Are gradients cleared between training steps? .grad read right before and after each backward call
(clipping- and GradScaler-proof), with a fallback comparison against a fresh gradient. Used by
step_audit. Imports torch and the probe helpers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import torch
from torch import nn
from torch.overrides import TorchFunctionMode

from debug_agent.schemas import Target

from ._common import clone, compute_loss, fork_rng, train_step


def _grads(model: nn.Module) -> dict[str, torch.Tensor | None]:
    return {n: (p.grad.detach().clone() if p.grad is not None else None) for n, p in model.named_parameters()}


def _flat(grads: dict[str, torch.Tensor | None]) -> torch.Tensor:
    parts = [g.reshape(-1).double().cpu() for g in grads.values() if g is not None]
    return torch.cat(parts) if parts else torch.zeros(0, dtype=torch.float64)


@dataclass
class _BackwardWatch(TorchFunctionMode):
    """Reads .grad of the watched parameters right before and right after each backward call.

    It sees `loss.backward()`, `torch.autograd.backward(...)` and `scaler.scale(loss).backward()`
    alike, so clipping or a GradScaler later in the step cannot hide what backward found in .grad.
    """

    params: dict[str, torch.Tensor]
    calls: list[tuple[dict[str, torch.Tensor | None], dict[str, torch.Tensor | None]]] = field(default_factory=list)
    steps_before: list[int] = field(default_factory=list)  # optimizer steps taken before each backward call
    steps: int = 0

    def __post_init__(self) -> None:
        super().__init__()

    def __torch_function__(self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: Any = None) -> Any:
        if getattr(func, "__name__", "") != "backward":
            return func(*args, **(kwargs or {}))
        before = self._read()
        out = func(*args, **(kwargs or {}))
        self.calls.append((before, self._read()))
        self.steps_before.append(self.steps)
        return out

    def stepped(self, *_: Any) -> None:
        self.steps += 1

    def inner_stale(self) -> list[str]:
        """Parameters whose gradient, already used by one optimizer step inside this train_step, is still in
        .grad when the next backward adds to it and a later step uses the sum: an inner loop (several
        discriminator steps per generator step) that clears gradients once, before the loop."""
        stale: set[str] = set()
        for k in range(1, len(self.calls)):
            if self.steps_before[k] == self.steps_before[k - 1] or self.steps == self.steps_before[k]:
                continue  # no step between these backward calls (accumulation on purpose), or none after
            (_, prev_after), (before, after) = self.calls[k - 1], self.calls[k]
            for n, g in before.items():
                old, new = prev_after.get(n), after.get(n)
                if g is None or old is None or new is None or not bool(g.ne(0).any()):
                    continue
                if torch.equal(g, old) and not torch.equal(new, g):
                    stale.add(n)
        return sorted(stale)

    def _read(self) -> dict[str, torch.Tensor | None]:
        return {n: (p.grad.detach().clone() if p.grad is not None else None) for n, p in self.params.items()}


def _norm(grads: dict[str, torch.Tensor | None]) -> float:
    return float(_flat(grads).norm())


def accumulation(
    target: Target, model: nn.Module, opt: torch.optim.Optimizer, batch: Any, tol: float
) -> tuple[str, dict[str, Any]]:
    """Run the user's step twice, reading .grad around each backward call.

    Cleared: when step 2 first calls backward, .grad is None or zero everywhere. Accumulating: it
    still holds what step 1 left (clipped or scaled, it does not matter). When no backward call is
    seen, fall back to comparing .grad after the steps with a freshly computed gradient.
    """
    in_opt = {id(p) for g in opt.param_groups for p in g["params"]}
    params = {n: p for n, p in model.named_parameters() if p.requires_grad and id(p) in in_opt}
    model.zero_grad(set_to_none=True)
    seed = torch.initial_seed()
    watches = [_BackwardWatch(params), _BackwardWatch(params)]
    a: dict[str, torch.Tensor | None] = {}
    for k, watch in enumerate(watches):
        # An optimizer-like object without step hooks leaves the inner-loop check blind (no steps counted).
        hook = opt.register_step_post_hook(watch.stepped) if hasattr(opt, "register_step_post_hook") else None
        with fork_rng(model):
            torch.manual_seed(seed + k)
            with watch:
                train_step(target, model, opt, batch)
        if hook is not None:
            hook.remove()
        if k == 0:
            a = _grads(model)
    if inner := watches[0].inner_stale():
        meas = {"optimizer_steps_per_call": watches[0].steps, "inner_steps_holding_old_grad": inner[:10]}
        return "accumulating", meas
    if not (watches[0].calls and watches[1].calls):
        return _compare_fresh(target, model, opt, batch, tol, a, seed)
    first_after = watches[0].calls[0][1]
    held = watches[1].calls[0][0]  # .grad as step 2's first backward found it
    meas: dict[str, Any] = {
        "backward_calls_per_step": len(watches[1].calls),
        "grad_norm_after_first_backward": round(_norm(first_after), 6),
        "grad_norm_before_second_step_backward": round(_norm(held), 6),
    }
    if _norm(first_after) == 0.0:
        meas["unclear_because"] = "the first backward left no non-zero gradient to accumulate"
        return "unclear", meas
    stale = [n for n, g in held.items() if g is not None and bool(g.ne(0).any())]
    meas["tensors_holding_old_grad"] = stale[:10]
    return ("accumulating" if stale else "cleared"), meas


def _compare_fresh(
    target: Target,
    model: nn.Module,
    opt: torch.optim.Optimizer,
    batch: Any,
    tol: float,
    a: dict[str, torch.Tensor | None],
    seed: int,
) -> tuple[str, dict[str, Any]]:
    """No backward call was seen: compare .grad after step 2 with the sum of step 1's and a fresh one.

    a: .grad after step 1; f: fresh gradient at the parameters step 2 started from (approximated by
    the parameters now); b: .grad after step 2. Cleared: b == f. Accumulating: b == a + f.
    """
    b = _grads(model)
    if all(v is None for v in b.values()):
        return "cleared", {"grad_after_step": "none (set to None after the step)"}
    fresh = clone(model, target)
    fresh.zero_grad(set_to_none=True)
    with fork_rng(model):
        torch.manual_seed(seed + 1)
        compute_loss(target, fresh, batch).backward()
    f = _grads(fresh)
    names = [n for n in b if b[n] is not None and f.get(n) is not None]

    def flat(g: dict[str, torch.Tensor | None]) -> torch.Tensor:
        return torch.cat(
            [_flat({n: g.get(n)}) if g.get(n) is not None else _flat({n: torch.zeros_like(f[n])}) for n in names]
        )

    fa, fb, ff = flat(a), flat(b), flat(f)
    scale = float(fb.norm()) + 1e-30
    cleared_err = float((fb - ff).norm()) / scale
    accum_err = float((fb - ff - fa).norm()) / scale
    meas = {
        "grad_norm_step1": round(float(fa.norm()), 6),
        "grad_norm_step2": round(float(fb.norm()), 6),
        "fresh_grad_norm": round(float(ff.norm()), 6),
        "cleared_error": round(cleared_err, 4),
        "accumulated_error": round(accum_err, 4),
    }
    if cleared_err <= tol:
        return "cleared", meas
    if accum_err <= tol:
        return "accumulating", meas
    meas["unclear_because"] = "no backward call was seen and .grad matches neither a fresh nor an accumulated gradient"
    return "unclear", meas


def accumulating_text(m: dict[str, Any]) -> str:
    """The finding's sentence for each way of seeing gradients pile up."""
    if "inner_steps_holding_old_grad" in m:
        return (
            f"train_step calls optimizer.step() {m['optimizer_steps_per_call']} times, but .grad of "
            f"{', '.join(m['inner_steps_holding_old_grad'][:4])} still holds the gradient an earlier step already "
            "used when the next backward adds to it: gradients are cleared once per call, not before each step"
        )
    if "grad_norm_before_second_step_backward" in m:
        return (
            f"when the second step calls backward, .grad still holds the first step's gradient (norm "
            f"{m['grad_norm_before_second_step_backward']:.3g}, on {', '.join(m['tensors_holding_old_grad'][:4])}):"
            " gradients are never cleared, so backward adds to them"
        )
    return (
        f"after the second step .grad equals the first step's gradient plus the new one "
        f"(gradient norm {m['grad_norm_step1']:.3g} -> {m['grad_norm_step2']:.3g}): gradients are never cleared"
    )
