"""mode_audit: does evaluation run in eval mode, deterministically, and does forward keep no state?"""

from __future__ import annotations

from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field
from torch import nn

from debug_agent.schemas import Finding, ProbeResult, Target

from ._common import clone_batch, copy_model, fork_rng, forward, main_tensor, run_eval_fn, watch_modules
from .registry import ProbeContext, probe

MODE_SENSITIVE = (nn.modules.dropout._DropoutNd, nn.modules.batchnorm._BatchNorm)


class ModeAuditOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tol: float = Field(default=1e-6, gt=0, description="relative difference that counts as a different output")


def _state(model: nn.Module) -> dict[str, torch.Tensor]:
    """Buffers and plain tensor attributes: anything forward could write to."""
    out = {f"buffer:{n}": b.detach().clone() for n, b in model.named_buffers() if b is not None}
    for mname, mod in model.named_modules():
        for attr, val in vars(mod).items():
            if isinstance(val, torch.Tensor) and not isinstance(val, nn.Parameter):
                out[f"attr:{mname + '.' if mname else ''}{attr}"] = val.detach().clone()
    return out


def _changed(before: dict[str, torch.Tensor], after: dict[str, torch.Tensor]) -> list[str]:
    keys = set(before) | set(after)
    return sorted(
        k
        for k in keys
        if k not in before
        or k not in after
        or before[k].shape != after[k].shape
        or not torch.equal(before[k], after[k])
    )


def _differs(a: Any, b: Any, tol: float) -> float:
    x, y = main_tensor(a).detach().double(), main_tensor(b).detach().double()
    if x.shape != y.shape:
        return float("inf")
    return float((x - y).abs().max() / (x.abs().max() + 1e-12))


@probe(
    headline=("eval_output_gap", "forward_output_gap"),
    outcomes=(
        "eval_mode_ok",
        "eval_in_train_mode",
        "eval_batch_stats",
        "eval_nondeterministic",
        "forward_deterministic",
        "state_mutated_in_forward",
        "state_written_not_read",
        "train_state_carried",
    ),
    cost=1.5,
    options=ModeAuditOptions,
)
def mode_audit(target: Target, ctx: ProbeContext, options: ModeAuditOptions) -> ProbeResult:
    """Run evaluation twice on the same batch: eval mode on? same output? does forward carry state?

    With an `eval_fn`: starts a copy in training mode (as after training), calls `eval_fn` twice and
    records which dropout/batch-norm modules ran in training mode and whether the two outputs or the
    running statistics differ. Always: calls the model twice in eval mode on the same batch; differing
    outputs (both calls seeded alike), or buffers and tensor attributes written by forward, mean state
    crosses calls.
    """
    outcomes: list[str] = []
    findings: list[Finding] = []
    meas: dict[str, Any] = {}
    if target.eval_fn is not None:
        _audit_eval_fn(target, ctx, options, (outcomes, findings, meas))

    _state_check(target, ctx.seed, options.tol, (outcomes, findings, meas))
    if "forward_deterministic" in outcomes and _read_back(
        target, copy_model(target).train(), None, ctx.seed, options.tol
    ):
        # Eval mode keeps nothing, yet in training mode the same batch comes out otherwise after another one:
        # a layer reads back what earlier training batches left (statistics accumulated across batches).
        outcomes[outcomes.index("forward_deterministic")] = "train_state_carried"
        findings.append(
            Finding(
                text="in training mode the same batch gives another output after a different batch went through "
                "(seeded alike): forward reads back state that earlier training batches left"
            )
        )
    failed = {"eval_in_train_mode", "eval_nondeterministic", "state_mutated_in_forward", "train_state_carried"} & set(
        outcomes
    )
    summary = (
        "; ".join(f.text for f in findings[:2])
        if failed
        else (
            "evaluation runs in eval mode and repeats exactly; forward keeps no state"
            if target.eval_fn is not None
            else "forward repeats exactly and keeps no state (no eval_fn to audit)"
        )
    )
    return ProbeResult(
        name="mode_audit",
        status="failed" if failed else "passed",
        outcomes=outcomes,
        findings=findings,
        measurements=meas,
        summary=summary,
    )


def _state_check(target: Target, seed: int, tol: float, into: tuple[list[str], list[Finding], dict[str, Any]]) -> None:
    """Two eval-mode calls on the same batch: state written, read back, or none."""
    outcomes, findings, meas = into
    model = copy_model(target).eval()
    before = _state(model)
    # Same seed for both calls: a forward that is random but stateless repeats exactly, so only state
    # carried between calls can make them differ (eval_randomness tells the two apart).
    with torch.no_grad(), fork_rng(model):
        torch.manual_seed(seed)
        a = forward(target, model, clone_batch(target.raw_inputs))
        mid = _state(model)
        torch.manual_seed(seed)
        b = forward(target, model, clone_batch(target.raw_inputs))
    written = _changed(before, mid)
    gap = _differs(a, b, tol)
    meas.update(forward_output_gap=float(f"{gap:.3g}"), state_written_by_forward=written[:10])
    # Written (a stored attention map, a debug tensor) but never read: another batch in between leaves the
    # output for this one unchanged, so nothing crosses calls. Unless eval_fn's calls already differ: then
    # the evaluation code may be what hands the written state back to forward.
    carried_by_eval_fn = "eval_nondeterministic" in outcomes
    if written and gap <= tol and not carried_by_eval_fn and not _read_back(target, model, a, seed, tol):
        outcomes.append("state_written_not_read")
        findings.append(
            Finding(text=f"forward writes {', '.join(written[:5])}, but no later call reads it (outputs unchanged)")
        )
    elif gap > tol or written:
        outcomes.append("state_mutated_in_forward")
        if written:
            findings.append(Finding(text=f"forward in eval mode writes {', '.join(written[:5])}"))
        if gap > tol:
            findings.append(
                Finding(text=f"two identical forward calls in eval mode differ (relative difference {gap:.2g})")
            )
    else:
        outcomes.append("forward_deterministic")


def _read_back(target: Target, model: nn.Module, first: Any, seed: int, tol: float) -> bool:
    """After a call on another batch, does the same batch give another output? (state read back)

    `first`: the batch's output from an earlier call (None: make it here, with the same seed)."""
    gen = torch.Generator().manual_seed(seed + 1)
    if first is None:
        with torch.no_grad(), fork_rng(model):
            torch.manual_seed(seed)
            first = forward(target, model, clone_batch(target.raw_inputs))

    def other(x: Any) -> Any:
        if isinstance(x, torch.Tensor) and x.is_floating_point():
            return x + torch.randn(x.shape, generator=gen).to(x.device, x.dtype) * (x.std() + 1.0)
        if isinstance(x, torch.Tensor) and x.dim():
            return torch.roll(x, 1, dims=-1)
        if isinstance(x, (tuple, list)) and not hasattr(x, "_fields"):
            return type(x)(other(v) for v in x)
        if isinstance(x, dict):
            return {k: other(v) for k, v in x.items()}
        return x

    with torch.no_grad(), fork_rng(model):
        torch.manual_seed(seed)
        forward(target, model, other(clone_batch(target.raw_inputs)))
        torch.manual_seed(seed)
        again = forward(target, model, clone_batch(target.raw_inputs))
    return _differs(first, again, tol) > tol


def _audit_eval_fn(
    target: Target,
    ctx: ProbeContext,
    options: ModeAuditOptions,
    into: tuple[list[str], list[Finding], dict[str, Any]],
) -> None:
    """Call eval_fn twice on a copy left in training mode: which modules ran in training mode, do outputs differ?"""
    outcomes, findings, meas = into
    model = copy_model(target).train()
    training: dict[str, bool] = {}
    hooks = watch_modules(model, lambda n, mod: training.__setitem__(n, mod.training), MODE_SENSITIVE)
    before = _state(model)
    with fork_rng(model):
        torch.manual_seed(ctx.seed)
        first = run_eval_fn(target, model, clone_batch(target.batch))
        torch.manual_seed(ctx.seed + 1)
        second = run_eval_fn(target, model, clone_batch(target.batch))
    for h in hooks:
        h.remove()
    on = [n for n, t in training.items() if t]
    gap = _differs(first, second, options.tol)
    stats = [k for k in _changed(before, _state(model)) if "running_" in k or "num_batches" in k]
    meas.update(eval_output_gap=float(f"{gap:.3g}"), train_mode_modules_in_eval=on, running_stats_changed=stats)
    if on:
        outcomes.append("eval_in_train_mode")
        findings.append(
            Finding(text=f"eval_fn ran {len(on)} dropout/batch-norm module(s) in training mode: {', '.join(on[:6])}")
        )
    norms = [n for n in on if isinstance(model.get_submodule(n), nn.modules.batchnorm._BatchNorm)]
    if norms:  # batch norm in training mode normalises with the evaluated batch's own statistics
        outcomes.append("eval_batch_stats")
        text = f"evaluation normalises with each batch's own statistics in {', '.join(norms[:4])}"
        findings.append(Finding(text=text))
    if gap > options.tol:
        outcomes.append("eval_nondeterministic")
        findings.append(Finding(text=f"two eval_fn calls on the same batch differ (relative difference {gap:.2g})"))
    if stats:
        findings.append(Finding(text=f"evaluation changed batch-norm running statistics: {', '.join(stats[:4])}"))
    if not on and gap <= options.tol:
        outcomes.append("eval_mode_ok")
