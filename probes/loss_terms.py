"""loss_terms: a loss that adds several terms, one of which drowns the others or trains nothing.

The loss function runs once on the model's output under a torch function mode that notes every
scalar term added (or subtracted) into the total, which terms were scaled by a constant, and which
tensors were computed from the model's output. A term computed from the output that carries no
gradient at all (the output detached, in forward or in the loss) adds a number and trains nothing.
Each term that reads the model's output is then backpropagated alone to the model's parameters: when one
term's gradient is orders of magnitude larger than another's, the smaller objective is effectively
ignored. A term the user scaled down on purpose (`0.01 * aux`) is a choice, never a finding.

May import: schemas, the probe registry and helpers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field
from torch.overrides import TorchFunctionMode

from debug_agent.schemas import Finding, ProbeResult, Target
from debug_agent.schemas.target import flat_tensors

from ._common import clone_batch, copy_model, finding_at, forward, user_frame
from .registry import ProbeContext, not_applicable, probe

ADDS = frozenset({"add", "__add__", "__radd__", "add_", "__iadd__", "sub", "__sub__", "__rsub__", "sub_", "__isub__"})
MULS = frozenset({"mul", "__mul__", "__rmul__", "div", "__truediv__", "true_divide"})
_SAME_VALUE = frozenset({"mean", "sum", "squeeze", "reshape", "view", "clone", "float", "double", "to", "contiguous"})


class LossTermsOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ratio: float = Field(default=100.0, gt=1, description="gradient-norm ratio of two terms that counts as drowning")
    max_terms: int = Field(default=6, ge=2, le=32, description="terms backpropagated one by one")


def _scalar_term(t: Any) -> bool:
    return isinstance(t, torch.Tensor) and t.dim() == 0 and t.is_floating_point() and t.requires_grad


def _flat(x: Any) -> list[torch.Tensor]:
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, (tuple, list)):
        return [t for v in x for t in _flat(v)]
    if isinstance(x, dict):
        return [t for v in x.values() for t in _flat(v)]
    return []


@dataclass
class _Terms(TorchFunctionMode):
    """Scalar terms summed into the loss (not partial sums), with their source lines, and constant weights."""

    terms: list[tuple[torch.Tensor, tuple[str, int, str] | None]] = field(default_factory=list)
    sums: list[torch.Tensor] = field(default_factory=list)  # partial sums, kept alive so their ids stay theirs
    weights: dict[int, float] = field(default_factory=dict)  # id(scaled term) -> constant it was scaled by
    scaled: list[torch.Tensor] = field(default_factory=list)  # the scaled terms, kept alive for the same reason
    derived: list[torch.Tensor] = field(default_factory=list)  # computed from the model's output (kept alive)
    dead: list[tuple[torch.Tensor, tuple[str, int, str] | None]] = field(default_factory=list)
    parts: dict[int, list[torch.Tensor]] = field(default_factory=dict)  # id(sum or scaled value) -> what it adds

    def __post_init__(self) -> None:
        super().__init__()
        self._derived_ids: set[int] = set()

    def additive(self, loss: Any) -> list[tuple[torch.Tensor, tuple[str, int, str] | None]]:
        """The terms the returned loss is a constant-weighted sum of. A term inside a ratio or a log (the
        numerator and denominator of a dice score) is part of one objective, not a term beside others."""
        if not isinstance(loss, torch.Tensor):
            return self.terms
        reached, todo = {id(loss)}, [loss]
        while todo:
            for t in self.parts.get(id(todo.pop()), []):
                if id(t) not in reached:
                    reached.add(id(t))
                    todo.append(t)
        return [(t, f) for t, f in self.terms if id(t) in reached]

    def read_from(self, outputs: list[torch.Tensor]) -> None:
        """Tensors the model returned: what they compute is "from the output"."""
        self.derived += outputs
        self._derived_ids |= {id(t) for t in outputs}

    def _dead_term(self, t: Any) -> bool:
        """A floating scalar computed from the model's output that carries no gradient."""
        return (
            isinstance(t, torch.Tensor) and t.dim() == 0 and t.is_floating_point() and not t.requires_grad
            and id(t) in self._derived_ids
        )

    def __torch_function__(self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: Any = None) -> Any:
        out = func(*args, **(kwargs or {}))
        name = getattr(func, "__name__", "")
        if any(id(t) in self._derived_ids for t in _flat(args) + _flat(kwargs or {})):
            self.read_from(_flat(out))
        if name in ADDS and len(args) >= 2 and isinstance(out, torch.Tensor) and out.dim() == 0:
            new = [t for t in args[:2] if self._dead_term(t) and all(t is not d for d, _ in self.dead)]
            self.dead += [(t, user_frame()) for t in new]
        if name in ADDS and len(args) >= 2 and _scalar_term(out):
            partial = {id(s) for s in self.sums}
            seen = {id(t) for t, _ in self.terms}
            for t in args[:2]:
                if _scalar_term(t) and id(t) not in partial and id(t) not in seen:
                    self.terms.append((t, user_frame()))
            self.parts.setdefault(id(out), []).extend(t for t in args[:2] if isinstance(t, torch.Tensor))
            self.sums.append(out)
        elif name in MULS and len(args) >= 2 and _scalar_term(out):
            const = [a for a in args[:2] if isinstance(a, (int, float)) or _constant(a)]
            if const:
                c = float(const[0])
                self.weights[id(out)] = 1 / c if name in ("div", "__truediv__", "true_divide") and c else c
                self.parts[id(out)] = [a for a in args[:2] if isinstance(a, torch.Tensor) and not _constant(a)]
                self.scaled.append(out)
        elif name in _SAME_VALUE and len(args) == 1 and _scalar_term(out) and isinstance(args[0], torch.Tensor):
            self.parts[id(out)] = [args[0]]  # `.mean()` or `.squeeze()` of a scalar passes the sum through
            self.scaled.append(out)
        return out


def _constant(a: Any) -> bool:
    return isinstance(a, torch.Tensor) and a.numel() == 1 and not a.requires_grad


def _grad_norm(term: torch.Tensor, wrt: list[torch.Tensor]) -> float:
    grads = torch.autograd.grad(term, wrt, retain_graph=True, allow_unused=True)
    return math.sqrt(sum(float(g.double().pow(2).sum()) for g in grads if g is not None))


@probe(
    headline=("gradient_ratio",),
    outcomes=("loss_terms_balanced", "loss_terms_imbalanced", "loss_term_without_gradient"),
    requires=("model", "batch", "loss_fn"),
    cost=1.0,
    options=LossTermsOptions,
)
def loss_terms(target: Target, ctx: ProbeContext, options: LossTermsOptions) -> ProbeResult:
    """Several terms added into the loss: is any one's gradient orders of magnitude below another's?

    Runs the forward and the loss once on a copy, noting the scalar terms the loss adds together and
    any constant each was scaled by. Each term that reads the model's output (a regulariser on the
    weights alone is left out) is backpropagated by itself to the parameters. Fails when the largest
    gradient norm is `ratio` times the smallest, unless the smaller term was scaled down by the user
    (a deliberate weight). Fails too when a term added into a loss that trains is computed from the
    model's output yet carries no gradient (`ce(head(out.detach()), y)`: that objective trains nothing).
    Not applicable to a loss of one term. One forward, one backward per term.
    """
    model = copy_model(target).train()
    inputs, targets = clone_batch(target.batch)
    out = forward(target, model, inputs)
    rec = _Terms()
    rec.read_from([t for t in flat_tensors(out) if t.is_floating_point()])
    with rec:
        loss = target.loss_fn(out, targets)
    params = [p for p in model.parameters() if p.requires_grad]
    if rec.dead and params and isinstance(loss, torch.Tensor) and loss.requires_grad:
        return _dead_terms(rec.dead)
    if params and (dead_parts := _dead_parts(out, loss, params, target.batch_size)):
        return dead_parts
    outputs = [t for t in flat_tensors(out) if t.is_floating_point() and t.requires_grad]
    rows = []
    for term, frame in rec.additive(loss)[: options.max_terms]:
        if not outputs or _grad_norm(term, outputs) == 0.0:
            continue  # reads no model output: a weight regulariser or a constant
        rows.append((term, frame, _grad_norm(term, params)))
    if len(rows) < 2:
        return not_applicable("loss_terms", "the loss adds fewer than two terms that read the model's output")
    return _judge(rows, rec.weights, options)


def _dead_terms(dead: list[tuple[torch.Tensor, tuple[str, int, str] | None]]) -> ProbeResult:
    """Terms of a loss that trains, computed from the model's output, with no gradient: they train nothing."""
    value, frame = float(dead[0][0]), dead[0][1]
    text = (
        f"the loss adds a term ({value:.4g}) computed from the model's output that carries no gradient: "
        "the output was detached on its way to this term, so its objective trains no parameter"
    )
    return ProbeResult(
        name="loss_terms",
        status="failed",
        outcomes=["loss_term_without_gradient"],
        findings=[finding_at(text, frame, value=round(value, 6))],
        measurements={"terms_without_gradient": [round(float(t), 6) for t, _ in dead]},
        summary=text.split(":")[0],
    )


def _dead_parts(out: Any, loss: Any, params: list[torch.Tensor], batch: int) -> ProbeResult | None:
    """A small vector of losses the model returns (one per stage: `torch.stack(commit_losses)`) that the loss
    reads, where some non-zero part has exactly no gradient to any parameter while another part has one."""
    if not isinstance(loss, torch.Tensor) or not loss.requires_grad:
        return None
    for v in flat_tensors(out):
        if not (v.is_floating_point() and v.requires_grad and v.dim() == 1 and 2 <= len(v) <= 16 and len(v) != batch):
            continue
        (reads,) = torch.autograd.grad(loss, v, retain_graph=True, allow_unused=True)
        if reads is None or not bool(reads.any()):
            continue  # the loss does not read this vector
        norms = [_grad_norm(v[i], params) for i in range(len(v))]
        dead = [i for i, g in enumerate(norms) if g == 0.0 and float(v[i]) != 0.0]
        if dead and any(g > 0 for g in norms):
            text = (
                f"parts {dead} of the loss vector {tuple(v.shape)} the model returns are non-zero "
                f"({', '.join(f'{float(v[i]):.3g}' for i in dead)}) but have exactly no gradient to any parameter, "
                f"while part {norms.index(max(norms))} has one: those stages' objectives train nothing (a path "
                "through a detached or straight-through value)"
            )
            return ProbeResult(
                name="loss_terms", status="failed", outcomes=["loss_term_without_gradient"],
                findings=[Finding(text=text)], summary=text.split(":")[0],
                measurements={"part_gradient_norms": [float(f"{g:.3g}") for g in norms]},
            )  # fmt: skip
    return None


def _judge(
    rows: list[tuple[torch.Tensor, tuple[str, int, str] | None, float]],
    weights: dict[int, float],
    options: LossTermsOptions,
) -> ProbeResult:
    """Drowned when the strongest term's gradient is `ratio` times the weakest's and nobody chose that."""
    big = max(rows, key=lambda r: r[2])
    small = min(rows, key=lambda r: r[2])
    ratio = big[2] / max(small[2], 1e-30)
    meas: dict[str, Any] = {
        "terms": [[round(float(t.detach()), 6), float(f"{g:.3g}")] for t, _, g in rows],
        "gradient_ratio": float(f"{ratio:.3g}"),
    }
    chosen = weights.get(id(small[0]))
    why = None
    if ratio < options.ratio:
        why = f"{len(rows)} loss terms with parameter gradients within {ratio:.0f}x of each other"
    elif chosen is not None and abs(chosen) < 1:
        meas["weight_of_smaller_term"] = chosen
        why = f"the smaller loss term's gradient is {ratio:.0f}x below the larger's, but it is scaled by {chosen:g}"
    if why is not None:
        return ProbeResult(
            name="loss_terms", status="passed", outcomes=["loss_terms_balanced"], measurements=meas, summary=why
        )
    text = (
        f"the loss term {float(big[0].detach()):.4g} has a parameter gradient {ratio:.0f}x that of the term "
        f"{float(small[0].detach()):.4g}: the smaller objective is drowned and barely trains"
    )
    findings = [finding_at(text, big[1], ratio=meas["gradient_ratio"])]
    return ProbeResult(
        name="loss_terms", status="failed", outcomes=["loss_terms_imbalanced"], findings=findings, measurements=meas,
        summary=text.split(":")[0],
    )
