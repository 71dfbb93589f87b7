"""init_loss: the loss at initialisation, and what the loss function is actually fed."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field
from torch.overrides import TorchFunctionMode

from debug_agent.schemas import Finding, ProbeResult, Target

from ._common import clone_batch, copy_model, finding_at, forward, user_frame
from .registry import ProbeContext, probe

CLASS_LOSSES = {"cross_entropy", "nll_loss"}
BINARY_LOSSES = {"binary_cross_entropy_with_logits", "binary_cross_entropy"}


class InitLossOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    slack: float = Field(default=1.0, gt=0, description="nats away from the untrained expectation that count as off")


@dataclass
class _LossCalls(TorchFunctionMode):
    calls: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__()

    def __torch_function__(self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        name = getattr(func, "__name__", "")
        if name in CLASS_LOSSES | BINARY_LOSSES and len(args) >= 2:
            self.calls.append(
                {
                    "name": name,
                    "input": args[0].detach(),
                    "target": args[1].detach() if isinstance(args[1], torch.Tensor) else args[1],
                    "ignore_index": kwargs.get("ignore_index", -100),
                    "where": user_frame(),
                }
            )
            out = func(*args, **kwargs)
            if isinstance(out, torch.Tensor) and out.numel() == 1:
                self.calls[-1]["value"] = _per_element(float(out.detach()), self.calls[-1], kwargs.get("reduction"))
            return out
        return func(*args, **kwargs)


def _per_element(value: float, call: dict[str, Any], reduction: str | None) -> float:
    """This call's own loss per counted element, apart from other terms: a `sum` reduction is divided back."""
    if reduction != "sum":
        return value
    t = call["target"]
    counted = int((t != call["ignore_index"]).sum()) if isinstance(t, torch.Tensor) and not t.is_floating_point() else 0
    return value / max(counted or call["input"].numel(), 1)


def _check(call: dict[str, Any], findings: list[Finding], meas: dict[str, Any]) -> list[str]:
    name, x, t = call["name"], call["input"].double(), call["target"]
    tags = []
    if name == "cross_entropy" and x.dim() >= 2:
        if bool((x >= 0).all()) and bool(((x.sum(1) - 1).abs() < 1e-3).all()):
            tags.append("probabilities_into_loss")
            findings.append(
                finding_at(
                    "cross_entropy receives rows that are already probabilities (non-negative, "
                    "summing to 1): softmax is applied twice",
                    call["where"],
                )
            )
    elif name == "nll_loss" and bool((x > 1e-6).any()):
        tags.append("probabilities_into_loss")
        findings.append(
            finding_at(
                f"nll_loss receives positive values (max {float(x.max()):.3g}); it expects "
                "log-probabilities from log_softmax",
                call["where"],
            )
        )
    elif name == "binary_cross_entropy_with_logits" and x.numel() >= 8 and bool(((x > 0) & (x < 1)).all()):
        tags.append("probabilities_into_loss")
        findings.append(
            finding_at(
                "binary_cross_entropy_with_logits receives values all inside (0, 1): a sigmoid "
                "is applied before a loss that applies its own",
                call["where"],
            )
        )
    elif name == "binary_cross_entropy" and x.numel() >= 8 and _in_sigmoid_band(x):
        # sigmoid(p) for p in [0, 1] lies in [0.5, 0.731]: a probability (or a ReLU output) squashed again
        tags.append("probabilities_into_loss")
        findings.append(
            finding_at(
                f"binary_cross_entropy receives values all inside [0.5, 0.731] ({float(x.min()):.3f} to "
                f"{float(x.max()):.3f}): a sigmoid is applied to values already in [0, 1] (a probability or a "
                "ReLU output), so no prediction can fall below 0.5",
                call["where"],
            )
        )
    if name in ("cross_entropy", "binary_cross_entropy_with_logits") and not tags and _rectified(x):
        tags.append("rectified_logits_into_loss")
        zero = float((x == 0).double().mean())
        findings.append(
            finding_at(
                f"{name} receives logits that are never negative and exactly 0 in {zero:.0%} of entries: a ReLU "
                "(or clamp) sits on the output layer, so no class score can go below zero"
                + (" and no prediction below 0.5" if name.startswith("binary") else ""),
                call["where"],
            )
        )
    if name in CLASS_LOSSES and isinstance(t, torch.Tensor) and not t.is_floating_point():
        kept = int((t != call["ignore_index"]).sum())
        meas["labels_kept"] = kept
        meas["labels_total"] = t.numel()
        if kept == 0:
            tags.append("all_targets_masked")
            findings.append(
                finding_at(
                    f"every one of the {t.numel()} labels equals ignore_index "
                    f"({call['ignore_index']}): nothing is learnt",
                    call["where"],
                )
            )
    return tags


def _rectified(x: torch.Tensor) -> bool:
    """Logits clipped at zero: none negative, a fifth or more exactly 0, the rest spread (not 0/1 labels)."""
    return x.numel() >= 16 and bool((x >= 0).all()) and float((x == 0).double().mean()) >= 0.2 and bool((x > 0).any())


def _in_sigmoid_band(x: torch.Tensor) -> bool:
    """All values in [sigmoid(0), sigmoid(1)] = [0.5, 0.7311], and not all one value."""
    lo, hi = float(x.min()), float(x.max())
    return lo >= 0.5 - 1e-6 and hi <= 1 / (1 + math.exp(-1)) + 1e-6 and hi - lo > 1e-6


def _expected(call: dict[str, Any]) -> tuple[float, str] | None:
    x = call["input"]
    if call["name"] in CLASS_LOSSES and x.dim() >= 2 and x.shape[1] > 1:
        c = x.shape[1]
        return math.log(c), f"ln({c})"
    if call["name"] == "binary_cross_entropy_with_logits":
        return math.log(2), "ln(2)"
    return None


@probe(
    headline=("initial_loss",),
    outcomes=(
        "init_loss_expected",
        "init_loss_off",
        "init_loss_huge",
        "probabilities_into_loss",
        "rectified_logits_into_loss",
        "all_targets_masked",
        "loss_inputs_ok",
    ),
    requires=("model", "batch", "loss_fn"),
    cost=1.0,
    options=InitLossOptions,
)
def init_loss(target: Target, ctx: ProbeContext, options: InitLossOptions) -> ProbeResult:
    """Check the loss at initialisation and the inputs of cross-entropy style losses.

    An untrained C-way classifier should start near ln(C) (a binary one near ln 2). Watches the
    loss function's calls: probabilities (softmax/sigmoid already applied) fed to a loss that
    applies its own, positive values fed to nll_loss, values all inside [0.5, 0.731] fed to
    binary_cross_entropy (a sigmoid of values already in [0, 1]), logits never negative and often exactly 0 (a ReLU
    on the output layer: `rectified_logits_into_loss`), and labels that are all ignore_index. A loss
    that is exactly zero with zero gradients has nothing to learn from, and one more than ten times the
    expectation (and 5 nats above it) means the outputs are enormous before any step: a failure.
    """
    model = copy_model(target).train()
    inputs, targets = clone_batch(target.batch)
    rec = _LossCalls()
    out = forward(target, model, inputs)
    with rec:
        loss = target.loss_fn(out, targets)
    value = float(loss.detach())
    findings: list[Finding] = []
    meas: dict[str, Any] = {
        "initial_loss": value if math.isfinite(value) else str(value),
        "loss_calls": [c["name"] for c in rec.calls],
    }
    tags: list[str] = []
    for call in rec.calls:
        tags += _check(call, findings, meas)
    if loss.requires_grad and value == 0.0 and "all_targets_masked" not in tags:
        loss.backward()
        if all(p.grad is None or not bool(p.grad.any()) for p in model.parameters()):
            tags.append("all_targets_masked")
            findings.append(Finding(text="the loss is exactly 0 and every gradient is 0: no example contributes"))
    expected = _expected(rec.calls[0]) if rec.calls else None
    if expected and math.isfinite(value):
        exp, label = expected
        meas.update(expected_loss=round(exp, 4), expected_from=label)
        off = abs(value - exp) > max(options.slack, 0.5 * exp)
        tags.append("init_loss_off" if off else "init_loss_expected")
        own = rec.calls[0].get("value", value)
        if own > 10 * exp and own - exp > 5:
            # Far beyond any over-confident head: the outputs are already enormous before a single step,
            # so the step size cannot be the cause; activations grow through depth or the inputs are raw.
            tags.append("init_loss_huge")
        if off:
            findings.append(
                Finding(
                    text=f"initial loss {value:.3g} is far from {label} = {exp:.3g} expected of an "
                    "untrained model (over-confident or mis-scaled outputs)"
                )
            )
    bad = {"probabilities_into_loss", "rectified_logits_into_loss", "all_targets_masked", "init_loss_huge"} & set(tags)
    if not bad - {"init_loss_huge"} and math.isfinite(value):  # a NaN loss is no evidence its inputs are fine
        tags.append("loss_inputs_ok")
    status = "failed" if bad else "passed"
    summary = (
        findings[0].text
        if bad
        else (
            f"initial loss {value:.3g}" + (f" (expected about {expected[0]:.3g} = {expected[1]})" if expected else "")
        )
    )
    return ProbeResult(
        name="init_loss", status=status, outcomes=tags, findings=findings, measurements=meas, summary=summary
    )
