"""step_audit: watch the training step itself — gradients cleared, parameters moved, graph intact, mode."""

from __future__ import annotations

import math
from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field
from torch import nn

from debug_agent.errors import ForeignOptimizer
from debug_agent.schemas import Finding, ProbeResult, Target

from ._accumulation import accumulating_text, accumulation
from ._common import clone, clone_batch, compute_loss, copy_model, make_optimizer, run_eval_fn, watch_modules
from ._masked_grads import MaskedGradWatch
from ._module_calls import ModuleCallWatch
from ._plain_weights import PlainWeightWatch
from ._step_modes import frozen_norm_stats, frozen_stats_moved, step_mode
from .registry import ProbeContext, probe


class StepAuditOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tol: float = Field(default=0.15, gt=0, lt=1, description="relative tolerance when comparing gradients")


def _grads(model: nn.Module) -> dict[str, torch.Tensor | None]:
    return {n: (p.grad.detach().clone() if p.grad is not None else None) for n, p in model.named_parameters()}


def _flat(grads: dict[str, torch.Tensor | None]) -> torch.Tensor:
    parts = [g.reshape(-1).double().cpu() for g in grads.values() if g is not None]
    return torch.cat(parts) if parts else torch.zeros(0, dtype=torch.float64)


_INTERNAL = set(vars(nn.Module()))  # _modules, _parameters, _buffers, hook dicts...


def _unregistered(model: nn.Module) -> list[str]:
    """Sub-modules kept in plain lists/dicts/tuples: nn.Module never registers them."""
    out = []
    for mname, mod in model.named_modules():
        for attr, val in vars(mod).items():
            if attr in _INTERNAL:
                continue
            items = val.values() if isinstance(val, dict) else val if isinstance(val, (list, tuple)) else ()
            if any(isinstance(v, nn.Module) for v in items):
                out.append(f"{mname + '.' if mname else ''}{attr}")
    return out


@probe(
    headline=("moved_tensors",),
    outcomes=(
        "grads_cleared",
        "textbook_step",
        "grads_accumulate",
        "params_updated",
        "params_not_updated",
        "params_negligible_grad",
        "frozen_params_moved",
        "frozen_stats_moved",
        "frozen_stay_fixed",
        "masked_grads_moved",
        "optimizer_misses_params",
        "outside_params_stuck",
        "unregistered_modules",
        "unregistered_tensors",
        "modules_built_in_forward",
        "module_backward_ignored",
        "params_frozen",
        "grad_path_ok",
        "grad_path_cut",
        "train_mode_in_step",
        "eval_mode_in_step",
        "norm_eval_in_train",
        "norm_eval_weights_train",
    ),
    requires=("model", "batch", "loss_fn"),
    cost=8.0,
    options=StepAuditOptions,
)
def step_audit(target: Target, ctx: ProbeContext, options: StepAuditOptions) -> ProbeResult:
    """Run two training steps on a copy: are gradients cleared, parameters updated, the graph whole?

    Uses the target's own `train_step` when given (else the textbook step, which clears gradients by
    construction: `textbook_step` says the user's own zero_grad was not tested) and its optimizer. Checks
    that .grad after the second step equals a freshly computed gradient (cleared) rather than the sum
    with the first (accumulating); lists parameters that did not move, are frozen, are missing from
    the optimizer, or sit in plain Python lists the module never registered (a gradient below 1e-6 of
    its weights is `params_negligible_grad`: dead or vanishing, not a step defect), and plain tensor
    attributes multiplied with the activations like weights (`unregistered_tensors`); lists parameters of
    modules that ran in forward but got no gradient (a cut graph) and frozen norm layers whose running
    statistics still move (left in training mode); and, when an `eval_fn` is given,
    runs it first and checks the step still trains in training mode.
    """
    model = copy_model(target)
    if target.train_step is None:
        model.train()  # our textbook step trains in training mode; the user's own step sets its mode itself
    audit = _Audit()
    _registration(model, audit)
    try:
        opt = make_optimizer(target, model)
    except ForeignOptimizer as exc:
        # The user's optimizer trains another model instance: the same holds in their own run. Stepping
        # it would change tensors that are not our copy, so stop here.
        audit.add("optimizer_misses_params", str(exc).removeprefix("optimizer: "))
        return audit.result("failed", "the optimizer holds another model instance's parameters")
    _optimizer_covers(model, opt, audit)

    # Which modules run in forward, and in which mode, during the user's step.
    ran: dict[str, bool] = {}
    hooks = watch_modules(model, lambda n, mod: ran.setdefault(n, mod.training))
    if target.eval_fn is not None:
        with torch.no_grad():
            run_eval_fn(target, model, clone_batch(target.batch))  # leaves our copy in whatever mode evaluation does
        ran.clear()
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    frozen_norms = frozen_norm_stats(model)  # judged on the user's own step only: ours trains every layer
    stats_before = frozen_norm_stats(model, eval_set=True) if target.train_step is not None else {}
    outside = dict(target._loss_state.named_parameters()) if target._loss_state is not None else {}
    outside_before = {n: p.detach().clone() for n, p in outside.items()}
    trained = {id(p) for g in opt.param_groups for p in g["params"]} | {id(p) for p in outside.values()}
    with (
        MaskedGradWatch(model, opt) as masked,
        PlainWeightWatch(model, target.model) as plain,
        ModuleCallWatch(model, trained) as calls,
    ):
        state, acc_meas = accumulation(target, model, opt, clone_batch(target.batch), options.tol)
    _stray_modules(calls, audit)
    if zeros := plain.zero_weights():
        audit.add(
            "unregistered_tensors",
            "plain tensor attributes that forward re-creates as zeros on every call are multiplied with the "
            f"activations like weights: their terms are always 0 and no optimizer trains them: {', '.join(zeros[:6])}",
        )
    elif plain.weights():
        audit.add(
            "unregistered_tensors",
            "plain tensor attributes (not nn.Parameter) are multiplied with the activations like weights, so no "
            f"optimizer trains them: {', '.join(plain.weights()[:6])}",
        )
    for h in hooks:
        h.remove()
    audit.meas.update(acc_meas)
    if state == "accumulating":
        audit.add("grads_accumulate", accumulating_text(acc_meas))
    elif state == "cleared" and target.train_step is None:
        audit.outcomes.append("textbook_step")  # our own step clears by construction: the user's loop is untested
    elif state == "cleared":
        audit.outcomes.append("grads_cleared")
    else:
        audit.note(f"could not tell whether gradients are cleared: {acc_meas.get('unclear_because', '')}")

    graph_tags = _graph(target, model, ran, audit.findings, audit.meas)
    in_opt = {id(p) for g in opt.param_groups for p in g["params"]}
    if "optimizer_misses_params" not in audit.outcomes:  # a layer built in forward, after the optimizer was made
        _optimizer_covers(model, opt, audit)
    _updates(model, before, in_opt, audit, cut="grad_path_cut" in graph_tags)
    _outside_updates(outside, outside_before, in_opt, audit)
    if text := frozen_stats_moved(model, stats_before):
        audit.add("frozen_stats_moved", text)
    moved = {"frozen_params_moved", "frozen_stats_moved"} & set(audit.outcomes)
    if "params_frozen" in audit.outcomes and (target.train_step is not None or not frozen_norms) and not moved:
        audit.outcomes.append("frozen_stay_fixed")  # the direct test of a freeze, passed
    if masked.moved:
        audit.add(
            "masked_grads_moved",
            f"the step zeroes the gradient of {sum(masked.masked.values())} element(s) of "
            f"{', '.join(list(masked.moved)[:4])} to keep them fixed, yet optimizer.step() changed "
            f"{sum(masked.moved.values())} of them (weight decay or momentum moves elements without a gradient)",
        )
    audit.outcomes += graph_tags
    audit.outcomes += step_mode(model, ran, target, before, audit.findings, audit.meas)

    failed = [o for o in audit.outcomes if o in _BAD]
    status = "failed" if failed else "inconclusive" if state == "unclear" else "passed"
    return audit.result(status, _summary(audit.outcomes, audit.findings, status))


# Trainable weights that live outside what the optimizer steps: "parameters updated" would hide them.
_STRAY = {"unregistered_modules", "unregistered_tensors", "modules_built_in_forward"}
_BAD = {
    "grads_accumulate",
    "frozen_params_moved",
    "frozen_stats_moved",
    "masked_grads_moved",
    "params_not_updated",
    "optimizer_misses_params",
    "outside_params_stuck",
    "unregistered_modules",
    "unregistered_tensors",
    "modules_built_in_forward",
    "module_backward_ignored",
    "grad_path_cut",
    "eval_mode_in_step",
}


class _Audit:
    """What the audit has established so far: outcome tags, findings and measurements."""

    def __init__(self) -> None:
        self.outcomes: list[str] = []
        self.findings: list[Finding] = []
        self.meas: dict[str, Any] = {}

    def add(self, outcome: str, text: str) -> None:
        self.outcomes.append(outcome)
        self.findings.append(Finding(text=text))

    def note(self, text: str) -> None:
        self.findings.append(Finding(text=text))

    def result(self, status: str, summary: str) -> ProbeResult:
        return ProbeResult(
            name="step_audit",
            status=status,
            outcomes=self.outcomes,
            findings=self.findings,
            summary=summary,
            measurements=self.meas,
        )


def _registration(model: nn.Module, audit: _Audit) -> None:
    """Parameters the optimizer can never see: unregistered sub-modules and frozen tensors."""
    unregistered = _unregistered(model)
    if unregistered:
        audit.add(
            "unregistered_modules",
            "sub-modules kept in plain Python containers are never registered, so their "
            f"parameters are not trained: {', '.join(unregistered)}",
        )
    frozen = [n for n, p in model.named_parameters() if not p.requires_grad]
    if frozen:
        audit.add(
            "params_frozen", f"{len(frozen)} parameter tensor(s) have requires_grad=False: {', '.join(frozen[:8])}"
        )


def _stray_modules(calls: ModuleCallWatch, audit: _Audit) -> None:
    """Layers built while forward runs, and module `backward` methods autograd never calls."""
    if built := calls.built_in_forward():
        audit.add(
            "modules_built_in_forward",
            "layers with parameters are constructed anew on every forward call, so each call draws fresh random "
            f"weights that no optimizer holds and no checkpoint saves: {', '.join(built[:4])}",
        )
    if ignored := calls.ignored_backwards():
        audit.add(
            "module_backward_ignored",
            f"{', '.join(ignored[:4])} define a `backward` method on an nn.Module, which autograd never calls (it "
            "differentiates forward instead); a custom gradient needs a torch.autograd.Function",
        )


def _optimizer_covers(model: nn.Module, opt: torch.optim.Optimizer, audit: _Audit) -> None:
    """Trainable parameters the optimizer leaves out (make_optimizer already refused foreign tensors)."""
    in_opt = {id(p) for g in opt.param_groups for p in g["params"]}
    missing = [n for n, p in model.named_parameters() if p.requires_grad and id(p) not in in_opt]
    if missing:
        audit.add(
            "optimizer_misses_params",
            f"{len(missing)} trainable parameter tensor(s) are not in the optimizer: {', '.join(missing[:8])}",
        )


def _updates(
    model: nn.Module, before: dict[str, torch.Tensor], in_opt: set[int], audit: _Audit, cut: bool = False
) -> None:
    """Which trainable tensors moved over the two steps, and why the others did not."""
    params = dict(model.named_parameters())
    moved = [n for n, p in params.items() if not torch.equal(before[n], p.detach())]
    trainable = [n for n, p in params.items() if p.requires_grad]
    # A parameter with no gradient cannot move; the cut graph (or an unused module) explains it.
    gradless = set(audit.meas.get("params_without_grad", [])) | {n for n, p in params.items() if p.grad is None}
    stuck = [n for n in trainable if n not in moved and n not in gradless]
    # A gradient many orders below its weights moves nothing in float32: that is vanishing, not a
    # missing update.
    tiny = [n for n in stuck if float(params[n].grad.norm()) < 1e-6 * (float(params[n].detach().norm()) + 1e-12)]
    stuck = [n for n in stuck if n not in tiny]
    if tiny:
        audit.meas["tensors_with_negligible_grad"] = tiny[:10]
        audit.outcomes.append("params_negligible_grad")
        audit.note(
            f"{len(tiny)} of {len(trainable)} trainable tensor(s) did not change because their gradient is below "
            f"1e-6 of their weights (zero or vanishing): {', '.join(tiny[:6])}"
        )
    audit.meas.update(trainable_tensors=len(trainable), moved_tensors=len(moved))
    # Only tensors the optimizer holds: an EMA teacher (BYOL, MoCo, DINO) is frozen and moved by design.
    frozen_moved = [n for n in moved if not params[n].requires_grad and id(params[n]) in in_opt]
    if frozen_moved:
        audit.add(
            "frozen_params_moved",
            f"{len(frozen_moved)} tensor(s) with requires_grad=False changed over two steps (the optimizer still "
            f"holds them: weight decay or momentum moves them without a gradient): {', '.join(frozen_moved[:8])}",
        )
    if cut and trainable and not moved and all(n in gradless for n in trainable):
        return  # no tensor got a gradient and the graph is cut: that explains why nothing moved
    if trainable and not moved and not tiny:
        audit.add(
            "params_not_updated",
            "no parameter changed over two training steps (is optimizer.step() called? is the lr 0?)",
        )
    elif stuck:
        audit.add(
            "params_not_updated",
            f"{len(stuck)} of {len(trainable)} trainable tensors got gradients but did not change: "
            f"{', '.join(stuck[:8])}",
        )
    elif trainable and not tiny and not _STRAY & set(audit.outcomes):
        audit.outcomes.append("params_updated")


def _outside_updates(
    params: dict[str, torch.Tensor], before: dict[str, torch.Tensor], in_opt: set[int], audit: _Audit
) -> None:
    """Trainable tensors of modules kept beside the model (learned loss weights, a margin head, class
    centres): a gradient reaches them, yet two steps leave them as they were."""
    graded = [n for n, p in params.items() if p.requires_grad and p.grad is not None and bool(p.grad.any())]
    stuck = [n for n in graded if torch.equal(before[n], params[n].detach())]
    if not stuck:
        return
    missing = [n for n in stuck if id(params[n]) not in in_opt]
    audit.meas["outside_params_stuck"] = stuck[:10]
    if "params_updated" in audit.outcomes:  # the model's own moved; not every trainable tensor did
        audit.outcomes.remove("params_updated")
    audit.add(
        "outside_params_stuck",
        f"{len(stuck)} trainable tensor(s) of modules the loss uses outside the model get gradients but did not "
        f"change over two steps{' (the optimizer does not hold them)' if missing else ''}: {', '.join(stuck[:6])}",
    )


def _summary(outcomes: list[str], findings: list[Finding], status: str) -> str:
    """Say only what was established: an unclear check is never summarised as passed."""
    if status == "failed":
        return "; ".join(f.text.split(":")[0] for f in findings[:3])
    said = {
        "grads_cleared": "gradients cleared",
        "params_updated": "every parameter updated",
        "params_negligible_grad": "some parameters get a negligible gradient and do not move",
        "grad_path_ok": "gradient path intact",
        "norm_eval_weights_train": "norm layers kept in eval to freeze them still train their weight and bias",
    }
    parts = [text for tag, text in said.items() if tag in outcomes]
    if "textbook_step" in outcomes:
        parts.insert(0, "zero_grad not tested (no train_step: the textbook step ran)")
    elif "grads_cleared" not in outcomes:
        parts.insert(0, "could not tell whether gradients are cleared")
    return ", ".join(parts)


def _graph(
    target: Target, model: nn.Module, ran: dict[str, bool], findings: list[Finding], meas: dict[str, Any]
) -> list[str]:
    """Parameters of modules that ran in forward but received no gradient: the path is cut."""
    fresh = clone(model, target)
    fresh.zero_grad(set_to_none=True)
    out_grad = True
    loss = compute_loss(target, fresh, clone_batch(target.batch))
    if not loss.requires_grad:
        out_grad = False
    else:
        loss.backward()
    cut = []
    for mname, mod in fresh.named_modules():
        if mname not in ran:
            continue
        for pname, p in mod.named_parameters(recurse=False):
            # None, not zero: a zero gradient can be a dead unit; None means no path from the loss.
            if p.requires_grad and p.grad is None and math.isfinite(float(loss.detach())):
                cut.append(f"{mname + '.' if mname else ''}{pname}")
    meas["params_without_grad"] = cut[:20]
    if not out_grad:
        findings.append(Finding(text="the loss does not require grad: the forward path leaves autograd entirely"))
        return ["grad_path_cut"]
    if cut:
        findings.append(
            Finding(
                text=f"{len(cut)} parameter tensor(s) of modules that ran in forward got no gradient: "
                f"{', '.join(cut[:8])}"
            )
        )
        return ["grad_path_cut"]
    return ["grad_path_ok"]
