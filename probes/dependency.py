"""dependency: does output row i depend on input row j != i? does position t see positions after t?"""

from __future__ import annotations

import math
from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field
from torch import nn

from debug_agent.schemas import Finding, ProbeResult, ProbeStatus, Target
from debug_agent.schemas.target import flat_tensors

from ._common import call_flat, clone_batch, copy_model, finding_at, main_tensor
from ._positions import CausalOptions, causal_test
from ._rows import Leaves, output_batch_axis
from ._trace import OpRecorder
from .registry import ProbeContext, probe


class DependencyOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tol: float = Field(
        default=1e-6, gt=0, lt=1, description="relative size of a cross-row gradient that counts as a leak"
    )
    causal: bool = Field(default=True, description="also test causal order when the target says causal")
    max_cut_passes: int = Field(default=8, ge=1, le=256, description="forward passes allowed for the causal test")


def _group_test(
    y: torch.Tensor, leaves: Leaves, proj: torch.Tensor, tol: float
) -> tuple[torch.Tensor, torch.Tensor, list[tuple[int, int]], int]:
    """Group testing over the bits of the row index: 2*ceil(log2 B) backward passes.

    For bit k and side b, backpropagate the outputs of rows whose bit k is b and read the gradient on
    rows whose bit k differs. Any pair i != j differs in some bit, so every leaking pair shows up.
    Returns (cross-leak norm per input row, total gradient norm per input row, the (bit, side)
    groups whose outputs leak, passes).
    """
    B = y.shape[0]
    rows = torch.arange(B, device=y.device)
    shape = (B,) + (1,) * (y.dim() - 1)
    total = leaves.row_norms((proj * y).sum())
    cross = torch.zeros(B, dtype=torch.float64)
    leaky: list[tuple[int, int]] = []
    passes = 1
    for k in range(max(1, math.ceil(math.log2(B)))):
        bit = (rows >> k) & 1
        for side in (0, 1):
            out_mask = (bit == side).to(y.dtype).reshape(shape)
            g = leaves.row_norms((proj * y * out_mask).sum())
            passes += 1
            other = (bit != side).cpu()
            if bool((g[other] > tol * float(total.max())).any()):
                leaky.append((k, side))
            cross[other] = torch.maximum(cross[other], g[other])
    return cross, total, leaky, passes


def _exemplar_candidates(B: int, leaky: list[tuple[int, int]]) -> list[int]:
    """Output rows most likely to be affected: their bits match the sides of the groups that leak."""
    bits = max(1, math.ceil(math.log2(B)))
    forced = {}
    for k in range(bits):
        sides = {s for kk, s in leaky if kk == k}
        if len(sides) == 1:
            forced[k] = sides.pop()
    rows = [i for i in range(B) if all((i >> k) & 1 == s for k, s in forced.items())]
    return rows or list(range(B))


def _exemplar(
    y: torch.Tensor, leaves: Leaves, proj: torch.Tensor, leaky: list[tuple[int, int]], floor: float
) -> tuple[int, list[int], float, int]:
    """One more backward pass (up to three if the first row is unaffected) shows which input rows feed an
    exemplar output row: (row, its source rows, largest cross/self gradient ratio, passes taken)."""
    B = y.shape[0]
    sources: list[int] = []
    passes = 0
    for i0 in _exemplar_candidates(B, leaky)[:3]:
        sel = torch.zeros(B, dtype=y.dtype, device=y.device)
        sel[i0] = 1.0
        src = leaves.row_norms((proj * y * sel.reshape((B,) + (1,) * (y.dim() - 1))).sum())
        passes += 1
        sources = [int(j) for j in torch.nonzero(src > floor).flatten() if int(j) != i0]
        if sources:
            break
    self_norm = float(src[i0])
    max_cross = float(src[sources].max()) if sources else 0.0
    return i0, sources, (max_cross / self_norm if self_norm > 0 else math.inf), passes


def _batch_pattern(
    y: torch.Tensor, leaves: Leaves, proj: torch.Tensor, tol: float
) -> tuple[list[str], dict[str, Any], list[Finding], int]:
    B = y.shape[0]
    cross, total, leaky, passes = _group_test(y, leaves, proj, tol)
    scale = float(total.max())
    meas: dict[str, Any] = {"batch_size": B, "grad_via": leaves.via}
    if scale == 0.0:
        meas["total_grad_norm"] = 0.0
        if not leaves.connected:  # no path at all: the graph is cut between the inputs and the output
            return ["input_grad_none"], meas, [Finding(text="no autograd path from the inputs to the outputs")], passes
        return (
            ["input_grad_zero"],
            meas,
            [Finding(text="the outputs have exactly zero gradient with respect to every input row")],
            passes,
        )
    leaking = [int(j) for j in torch.nonzero(cross > tol * scale).flatten()]
    meas.update(leaking_input_rows=leaking, leak_fraction=round(len(leaking) / B, 4))
    if B <= 256:  # per-row picture for the dependency plot: cross-row gradient over the largest total
        meas["cross_leak_by_row"] = [float(f"{v:.3g}") for v in (cross / scale).tolist()]
    if not leaking:
        return ["batch_independent"], meas, [], passes

    i0, sources, ratio, extra = _exemplar(y, leaves, proj, leaky, tol * scale)
    passes += extra
    meas.update(
        exemplar_row=i0,
        exemplar_sources=sources,
        exemplar_cross_to_self=round(ratio, 6) if math.isfinite(ratio) else None,
    )
    dense = len(sources) >= 0.9 * (B - 1) and ratio < 0.5
    # With 3 rows or fewer every leak reaches (nearly) all others: dense and structured look alike.
    shape_tag = [] if B <= 3 else ["batch_leak_dense" if dense else "batch_leak_structured"]
    tags = ["batch_leak", *shape_tag]
    shown = ", ".join(map(str, leaking[:12])) + (" ..." if len(leaking) > 12 else "")
    srcs = ", ".join(map(str, sources[:12])) + (" ..." if len(sources) > 12 else "")
    findings = [
        Finding(
            text=f"output row {i0} has non-zero gradient with respect to input rows {srcs or 'none'} of the same batch"
            f" (largest cross/self gradient ratio {ratio:.3g})",
            data={"row": i0, "sources": sources},
        ),
        Finding(
            text=f"{len(leaking)} of {B} input rows influence other rows' outputs: {shown}",
            data={"leaking_rows": leaking},
        ),
    ]
    return tags, meas, findings, passes


def _forward_notes(rec: OpRecorder) -> tuple[list[str], list[Finding]]:
    tags, findings = [], []
    for ev in rec.events:
        if ev.kind == "norm_over_batch":
            tags.append("batch_leak_via_softmax")
            findings.append(
                finding_at(
                    f"forward calls `{ev.op}` over the batch axis of {tuple(ev.shapes[0])} ({ev.detail})", ev.where
                )
            )
        elif ev.kind == "batch_reduction":
            findings.append(
                finding_at(
                    f"forward reduces over the batch axis: `{ev.op}` of {tuple(ev.shapes[0])} ({ev.detail})", ev.where
                )
            )
    return tags, findings


def _batch_stat_norms(model: nn.Module) -> list[str]:
    """Norm layers that use batch statistics even in eval mode."""
    return [
        n or type(m).__name__
        for n, m in model.named_modules()
        if isinstance(m, nn.modules.batchnorm._NormBase) and (not m.track_running_stats or m.running_mean is None)
    ]


@probe(
    headline=("leak_fraction", "causal_leaks"),
    plot="dependency_map",
    outcomes=(
        "batch_independent",
        "batch_leak",
        "batch_leak_structured",
        "batch_leak_dense",
        "batch_leak_via_norm",
        "batch_leak_via_softmax",
        "input_grad_zero",
        "input_grad_none",
        "causal_ok",
        "causal_leak",
        "causal_leak_superset",
        "positions_scrambled",
    ),
    cost=8.0,
    options=DependencyOptions,
    per_row=True,
)
def dependency(target: Target, ctx: ProbeContext, options: DependencyOptions) -> ProbeResult:
    """Test that output row i never depends on input row j != i (and, if causal, position t on later ones).

    Runs a copy in eval mode. The batch test is gradient-based group testing over the bits of the
    row index: about 2*ceil(log2 B) backward passes find every leaking pair, plus one pass for the
    totals and one to show which rows feed an exemplar output row. Token inputs are differentiated
    through the embedding outputs. The pattern separates structured leaks (a layout scramble) from
    dense weak coupling (batch statistics) and softmax over the batch axis. With `causal: True` in
    the target, each row gets its own cut position and only later positions are perturbed; outputs
    before the cut must not move.
    """
    model = copy_model(target).eval()
    # Work batch-first: inputs whose batch axis is declared elsewhere (sequence-first) are moved to
    # axis 0 here and back (as views, so gradients still reach our leaves) when the model is called.
    axes = target.input_axes
    inputs = tuple(x.movedim(a, 0) for x, a in zip(clone_batch(target.inputs), axes, strict=True))

    def call(xs: Any) -> Any:
        return call_flat(target, model, [x.movedim(0, a) for x, a in zip(xs, axes, strict=True)])

    B = target.batch_size
    if B < 2:
        return ProbeResult(name="dependency", status="not_applicable", summary="batch of one: nothing to leak")
    leaves = Leaves(model, inputs, B)
    rec = OpRecorder(batch_size=B, reductions=True, batch_axis=axes[0])
    with torch.enable_grad(), rec:
        out = call(leaves.inputs)
    leaves.remove()
    pairwise = _Pairwise(rec)
    y = pairwise.main_output(out)
    if y is None:
        return pairwise.all_outputs_pairwise()
    axis, scores = output_batch_axis(call, inputs, y, B, ctx.seed, declared=target.batch_axis is not None)
    if axis is None and not scores:
        why = f"output shape {tuple(y.shape)} has no axis of size {B} (the batch)"
        return ProbeResult(name="dependency", status="not_applicable", summary=why)
    if axis is None:
        return _unmapped(
            f"no axis of the output {tuple(y.shape)} follows the input rows (changing input row r moved at most "
            f"{max(scores.values()):.0%} of the output change to index r of an axis of size {B}); either the rows "
            "are mixed or that axis is not the batch",
            scores,
        )
    if not leaves.leaves:
        why = "no float input and no nn.Embedding output whose batch axis could be found"
        return _unmapped(why + (f" ({'; '.join(leaves.unmapped[:3])})" if leaves.unmapped else ""), scores)
    tags, meas, findings, passes = _rows(_every_output(out, y, axis, B, pairwise), leaves, model, rec, options.tol)
    if any(pairwise.covers(t) for t in flat_tensors(out)):
        findings.append(Finding(text=f"left out of the row test, as coupling by design: {pairwise.describe()}"))
    if axis != 0:
        meas["output_batch_axis"] = axis
    if scores:
        meas["output_axis_scores"] = scores
    meas["backward_passes"] = passes

    if options.causal and target.causal:
        _causal(call, inputs, target, options, axis, ctx.seed, (tags, findings, meas))
    status, summary = _summarise(tags, meas, B, passes)
    return ProbeResult(
        name="dependency", status=status, summary=summary, outcomes=tags, findings=findings, measurements=meas
    )


class _Pairwise:
    """Outputs that compare rows with rows: a (B, B) head built by a product of two batch-indexed tensors
    (CLIP's logits_per_image, a similarity matrix for in-batch negatives). Such a head couples the rows on
    purpose, so the row test leaves it out and reads the model's other outputs. Heads are matched by shape:
    a per-row output whose width happens to equal the batch size looks the same and is left out too."""

    def __init__(self, rec: OpRecorder) -> None:
        self.events = [ev for ev in rec.events if ev.kind == "pairwise_batch"]
        self._shapes = [sorted(ev.out_shape or []) for ev in self.events]

    def covers(self, t: torch.Tensor) -> bool:
        return sorted(t.shape) in self._shapes

    def main_output(self, out: Any) -> torch.Tensor | None:
        """The main output, or the first float output that is not a row-by-row head (None: there is none)."""
        y = main_tensor(out)
        if not self.covers(y):
            return y
        return next((t for t in flat_tensors(out) if t.is_floating_point() and t.dim() and not self.covers(t)), None)

    def all_outputs_pairwise(self) -> ProbeResult:
        why = f"every output compares rows with rows ({self.describe()}): they couple the batch by design"
        return ProbeResult(name="dependency", status="not_applicable", summary=why)

    def describe(self) -> str:
        ev = self.events[0]
        line = f" at {ev.where[0]}:{ev.where[1]}" if ev.where else ""
        return f"`{ev.op}` of {' and '.join(str(tuple(s)) for s in ev.shapes)} gives {tuple(ev.out_shape or [])}{line}"


def _every_output(out: Any, y: torch.Tensor, axis: int, batch: int, pairwise: _Pairwise) -> torch.Tensor:
    """The output rows to test, batch first: the main output, joined (each row flattened) by every other
    float output with the batch on the same axis. A model returning several heads (a mixture's means,
    scales and weights; boxes and scores) can couple the rows in any of them; row-by-row heads are left out."""
    extra = [
        t
        for t in flat_tensors(out)
        if t is not y
        and t.is_floating_point()
        and t.requires_grad
        and t.dim() > axis
        and t.shape[axis] == batch
        and not pairwise.covers(t)
    ]
    if not extra:
        return y.movedim(axis, 0)
    return torch.cat([t.movedim(axis, 0).reshape(batch, -1).to(y.dtype) for t in [y, *extra]], dim=1)  # (B, N)


def _causal(
    call: Any,
    inputs: tuple[torch.Tensor, ...],
    target: Target,
    options: DependencyOptions,
    axis: int,
    seed: int,
    into: tuple[list[str], list[Finding], dict[str, Any]],
) -> None:
    """The causal-order test on batch-first inputs: each row cut at its own position, later ones perturbed."""
    tags, findings, meas = into
    axes = target.input_axes
    seq = target.sequence_dim + 1 if target.sequence_dim < axes[0] else target.sequence_dim  # batch-first
    opts = CausalOptions(tol=options.tol, max_cut_passes=options.max_cut_passes)
    ctags, cmeas, cfind = causal_test(call, inputs, (seq, axis), opts, seed, rows_independent="batch_leak" not in tags)
    tags += ctags
    meas.update(cmeas)
    findings += cfind
    if "batch_leak" in tags and ctags:
        meas["causal_note"] = "rows leak into each other, so causal results may include cross-row effects"


def _rows(
    y: torch.Tensor, leaves: Leaves, model: nn.Module, rec: OpRecorder, tol: float
) -> tuple[list[str], dict[str, Any], list[Finding], int]:
    """The batch test on a batch-first output `y`: which rows feed which, and what explains a leak."""
    if not y.requires_grad:
        finding = Finding(text="no gradient path from the inputs to the output (the graph is cut)")
        return ["input_grad_none"], {"batch_size": leaves.batch}, [finding], 0
    proj = torch.randn(y.shape, dtype=y.dtype).to(y.device)  # drawn on the CPU: same numbers on any device
    tags, meas, findings, passes = _batch_pattern(y, leaves, proj, tol)
    if "batch_leak" in tags:
        norms = _batch_stat_norms(model)
        meas["batch_stat_norm_layers"] = norms
        if norms and "batch_leak_structured" not in tags:
            tags.append("batch_leak_via_norm")
            findings.append(
                Finding(text=f"layers that normalise with batch statistics in eval mode: {', '.join(norms)}")
            )
        extra_tags, extra = _forward_notes(rec)
        tags += extra_tags
        findings += extra
        reduced = any(ev.kind == "batch_reduction" for ev in rec.events)
        if reduced and "batch_leak_structured" not in tags and "batch_leak_via_norm" not in tags:
            tags.append("batch_leak_via_norm")  # statistics taken over the batch by hand (a handwritten batch norm)
    return tags, meas, findings, passes


def _summarise(tags: list[str], meas: dict[str, Any], B: int, passes: int) -> tuple[ProbeStatus, str]:
    """Status and one-line summary; an untested batch axis is inconclusive, never a pass."""
    leak = "batch_leak" in tags or "causal_leak" in tags
    status = "failed" if leak else "inconclusive" if {"input_grad_zero", "input_grad_none"} & set(tags) else "passed"
    parts = []
    if "batch_leak" in tags:
        parts.append(f"{len(meas['leaking_input_rows'])}/{B} rows leak into other rows")
    elif "batch_independent" in tags:
        parts.append(f"all {B} rows independent ({passes} backward passes)")
    elif "input_grad_none" in tags:
        parts.append("no autograd path reaches the inputs; batch independence untested")
    elif "input_grad_zero" in tags:
        parts.append("the gradient reaching the inputs is exactly zero; batch independence untested")
    if "causal_leak" in tags:
        parts.append("future positions leak into the past")
    elif "causal_ok" in tags:
        parts.append(f"causal order holds at {meas['causal_cuts_tested']} cut positions")
    return status, "; ".join(parts)


def _unmapped(why: str, scores: dict[str, float]) -> ProbeResult:
    """The rows could not be followed through the model: untested, and never evidence."""
    return ProbeResult(
        name="dependency",
        status="inconclusive",
        summary=f"batch independence untested: {why}",
        findings=[Finding(text=f"could not map the batch axis: {why}")],
        measurements={"output_axis_scores": scores} if scores else {},
    )
