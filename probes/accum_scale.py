"""accum_scale: a training step that accumulates gradients over micro-batches, is the sum scaled?

A step that splits the batch into k micro-batches, calls backward on each and steps once must divide
each micro-batch loss by k, or the gradient it steps on is k times the gradient of the batch's mean
loss: the learning rate is silently k times larger. The user's own `train_step` runs once on a copy;
`.grad` is read right after the last backward call before `optimizer.step()` (before any clipping),
and compared with the gradient of `loss_fn` on the whole batch computed on a second copy.

May import: schemas, the probe registry and helpers.
"""

from __future__ import annotations

from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field

from debug_agent.schemas import Finding, ProbeResult, Target

from ._accumulation import _BackwardWatch, _flat
from ._common import clone, clone_batch, compute_loss, copy_model, fork_rng, make_optimizer, train_step
from .registry import ProbeContext, not_applicable, probe


class AccumScaleOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tol: float = Field(default=0.25, gt=0, lt=1, description="relative distance to 1x or kx that decides")


class _FirstStep:
    """An optimizer step pre-hook: at the first step, how many backward calls came before it and the
    gradient the last of them left (before any clipping). A hook, not a replaced .step, so an LR
    scheduler that wraps .step keeps working."""

    def __init__(self, watch: _BackwardWatch) -> None:
        self.watch = watch
        self.backward_calls: int | None = None
        self.grad: dict[str, torch.Tensor | None] = {}

    def __call__(self, *_: Any) -> None:
        if self.backward_calls is None:
            self.backward_calls = len(self.watch.calls)
            self.grad = self.watch.calls[-1][1] if self.watch.calls else {}


def _no_dropout(model: torch.nn.Module) -> None:
    """Dropout off in a probe's copy: dropout modules and float dropout rates kept on modules (an
    attention's `dropout_prob`, nn.MultiheadAttention's `dropout`) set to 0."""
    for m in model.modules():
        for name, value in list(vars(m).items()):
            if "dropout" in name and isinstance(value, float) and 0.0 < value < 1.0:
                setattr(m, name, 0.0)
        if isinstance(m, torch.nn.modules.dropout._DropoutNd):
            m.p = 0.0


@probe(
    headline=("gradient_ratio",),
    outcomes=("accum_scaled", "accum_unscaled"),
    requires=("model", "batch", "loss_fn", "train_step"),
    cost=3.0,
    options=AccumScaleOptions,
)
def accum_scale(target: Target, ctx: ProbeContext, options: AccumScaleOptions) -> ProbeResult:
    """Gradient accumulation in your train_step: is the accumulated gradient the batch's, or k times it?

    Runs your `train_step` once on a copy (dropout off), counting the backward calls before the first
    `optimizer.step()` and reading `.grad` right after the last of them; a second copy computes the
    gradient of `loss_fn` on the whole batch. With k >= 2 backward calls, an accumulated gradient about
    k times the batch gradient (projected on it) is `accum_unscaled`; about 1 time is `accum_scaled`;
    anything else (micro-batches that do not cover the batch) gives no verdict. Not applicable to a
    step that calls backward once.
    """
    model = copy_model(target)
    _no_dropout(model)  # both copies deterministic: micro-batches draw other dropout masks than the batch
    reference = clone(model, target)
    opt = make_optimizer(target, model)
    if not hasattr(opt, "register_step_pre_hook"):
        return not_applicable("accum_scale", "the optimizer takes no step hooks (not a torch.optim.Optimizer)")
    params = {n: p for n, p in model.named_parameters() if p.requires_grad}
    watch = _BackwardWatch(params)
    first = _FirstStep(watch)
    hook = opt.register_step_pre_hook(first)
    with fork_rng(model):
        torch.manual_seed(ctx.seed)
        with watch:
            train_step(target, model, opt, clone_batch(target.batch))
    hook.remove()
    k = first.backward_calls or 0
    if k < 2:
        observed = _observed_accumulation(target, opt, first, dict(model.named_parameters()))
        if observed is not None:
            return observed
        return not_applicable("accum_scale", f"the step calls backward {k} time(s) before stepping: no accumulation")
    # The reference in the mode the step trained in, dropout off too (a copy rebuilt from the target
    # function, for a model a deep copy cannot isolate, comes back with its dropout on).
    reference.train(model.training)
    _no_dropout(reference)
    reference.zero_grad(set_to_none=True)
    with fork_rng(reference):
        torch.manual_seed(ctx.seed)
        compute_loss(target, reference, clone_batch(target.batch)).backward()
    ref = {n: p.grad for n, p in reference.named_parameters() if n in params}
    names = [n for n in params if first.grad.get(n) is not None and ref.get(n) is not None]
    acc, full = _flat({n: first.grad[n] for n in names}), _flat({n: ref[n] for n in names})
    if float(full.norm()) == 0.0:
        return not_applicable("accum_scale", "the batch's loss has no gradient to compare with")
    ratio = float(acc @ full) / float(full @ full)
    meas: dict[str, Any] = {"backward_calls_per_step": k, "gradient_ratio": round(ratio, 4)}
    if abs(ratio - k) <= options.tol * k:
        text = (
            f"the step accumulates {k} backward calls and steps on {ratio:.2f}x the gradient of the batch's loss: "
            f"each micro-batch loss is not divided by {k}, so the effective learning rate is {k} times the set one"
        )
        return ProbeResult(
            name="accum_scale", status="failed", outcomes=["accum_unscaled"], measurements=meas,
            findings=[Finding(text=text, data={"ratio": round(ratio, 4), "micro_batches": k})],
            summary=text.split(":")[0],
        )  # fmt: skip
    if abs(ratio - 1.0) <= options.tol:
        summary = f"{k} accumulated backward calls give {ratio:.2f}x the batch gradient: the losses are scaled"
        return ProbeResult(
            name="accum_scale", status="passed", outcomes=["accum_scaled"], measurements=meas, summary=summary
        )
    summary = f"{k} accumulated backward calls give {ratio:.2f}x the batch gradient, neither 1x nor {k}x; no verdict"
    return ProbeResult(name="accum_scale", status="inconclusive", measurements=meas, summary=summary)


def _observed_accumulation(
    target: Target, opt: torch.optim.Optimizer, first: _FirstStep, named: dict[str, torch.nn.Parameter]
) -> ProbeResult | None:
    """An observed run (`ask -- python train.py`) whose first optimizer step came after k >= 2 backward calls,
    while the step rebuilt from it calls backward once: compare the gradient norm the run stepped on with
    the one-micro-batch gradient of the replay (same starting weights, parameter group 0).

    Summed over k micro-batches the norm is between sqrt(k) (unrelated gradients) and k (aligned ones) times
    one micro-batch's; averaged, between 1/sqrt(k) and 1. At or above max(1.5, 0.8 sqrt(k)) is unscaled;
    below, no verdict (clipping before the step lowers the norm read there). None when there is no such record."""
    steps = target.observation.steps if target.observation is not None else []
    step = steps[0] if steps else None
    if step is None or step.kind != "optimizer" or step.backwards < 2 or not step.grad_norms:
        return None
    stepped, k = step.grad_norms[0], step.backwards
    names = {id(p): n for n, p in named.items()}
    grads = [first.grad.get(names.get(id(p), "")) for p in opt.param_groups[0]["params"]]
    squares = [g.double().pow(2).sum() for g in grads if g is not None]
    one = float(torch.stack(squares).sum().sqrt()) if squares else 0.0
    if stepped is None or one == 0.0:
        return None
    ratio = stepped / one
    meas: dict[str, Any] = {"backward_calls_per_step": k, "observed_gradient_ratio": round(ratio, 4)}
    if ratio >= max(1.5, 0.8 * k**0.5):
        text = (
            f"the observed run stepped after {k} backward calls on a gradient {ratio:.1f}x the norm of one "
            f"micro-batch's (sqrt({k}) = {k**0.5:.1f} if unrelated, {k} if aligned): the micro-batch losses are "
            f"summed, not divided by {k}"
        )
        found = [Finding(text=text, where=step.backward_where.ref if step.backward_where else None)]
        return ProbeResult(
            name="accum_scale", status="failed", outcomes=["accum_unscaled"], measurements=meas, findings=found,
            summary=text.split(":")[0],
        )  # fmt: skip
    # A low ratio is no proof of scaling: the norm is read at optimizer.step(), after any gradient clipping.
    summary = (
        f"the observed run's {k} backward calls step on {ratio:.2f}x one micro-batch's gradient norm: not summed "
        "unscaled, unless clipping before the step hid it; no verdict"
    )
    return ProbeResult(name="accum_scale", status="inconclusive", measurements=meas, summary=summary)
