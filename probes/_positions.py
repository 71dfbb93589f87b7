"""Causal order within a row: the cut test (do outputs before position c move when only positions >= c
change?) and, when it leaks, the pattern of the leak measured position by position.

A missing or off-by-one causal mask gives a SUPERSET of the causal dependence: every output position
still reads its own position and an unbroken run of earlier ones, plus later ones. A layout scramble
(heads split by a reshape that mixes positions) breaks the pattern instead: a position stops reading
itself or skips an earlier position while reading one before it. Used by the dependency probe.
Imports torch, pydantic and the probe helpers.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import torch
from pydantic import BaseModel

from debug_agent.schemas import Finding

from ._common import main_tensor


class CausalOptions(BaseModel):
    """The options the causal test reads (a subset of DependencyOptions)."""

    tol: float
    max_cut_passes: int


def perturb(x: torch.Tensor, row: int, start: int, dim: int, gen: torch.Generator, stop: int | None = None) -> None:
    """Change x[row, ..., start:stop, ...] along the sequence axis in place (x is our own copy)."""
    idx = [slice(None)] * x.dim()
    idx[0], idx[dim] = row, slice(start, stop)
    part = x[tuple(idx)]
    if x.is_floating_point():
        x[tuple(idx)] = part + torch.randn(part.shape, generator=gen, dtype=x.dtype).to(x.device) * (
            float(x.float().std()) + 1e-3
        )
    else:
        vocab = int(x.max()) + 1
        x[tuple(idx)] = (part + torch.randint(1, max(vocab, 2), part.shape, generator=gen).to(x.device)) % max(vocab, 2)


def _cut_leaks(
    call: Callable[[Any], Any],
    inputs: tuple[torch.Tensor, ...],
    y0: torch.Tensor,
    axes: tuple[int, int, int],
    cuts: list[int],
    n_pass: int,
    tol: float,
    seed: int,
) -> list[tuple[int, int, int, float]]:
    """(row, cut, earliest changed position, largest change) for each row whose outputs before its cut moved
    when only positions at or after the cut were changed; B cuts per pass, one per row."""
    dim, out_axis, pos = axes
    B, T = inputs[0].shape[0], inputs[0].shape[dim]
    gen = torch.Generator().manual_seed(seed)
    leaks: list[tuple[int, int, int, float]] = []
    for p in range(n_pass):
        chunk = cuts[p * B : (p + 1) * B]
        if not chunk:
            break
        xs = tuple(x.clone() for x in inputs)
        for row, c in enumerate(chunk):
            for x in xs:
                if x.dim() > dim and x.shape[dim] == T:
                    perturb(x, row, c, dim, gen)
        with torch.no_grad():
            y = main_tensor(call(xs)).movedim(out_axis, 0)
        diff = (y - y0).abs().movedim(pos, 1).reshape(B, T, -1).amax(-1)  # (B, T)
        for row, c in enumerate(chunk):
            changed = torch.nonzero(diff[row, :c] > tol).flatten()
            if len(changed):
                leaks.append((row, c, int(changed[0]), float(diff[row, :c].max())))
    return leaks


def causal_test(
    call: Callable[[Any], Any],
    inputs: tuple[torch.Tensor, ...],
    dims: tuple[int, int],
    opts: CausalOptions,
    seed: int,
    rows_independent: bool = True,
) -> tuple[list[str], dict[str, Any], list[Finding]]:
    """Per-row cut test: row b gets its own cut c_b; only positions >= c_b change; outputs before c_b must not.

    dims: (sequence axis of the inputs, batch axis of the output). The output's position axis is the
    same as the inputs' when it has length T there, else its only other axis of length T. When the
    cut test leaks, `position_pattern` tells a superset of causal dependence from a scramble.
    """
    dim, out_axis = dims
    B, T = inputs[0].shape[0], inputs[0].shape[dim]
    with torch.no_grad():
        y0 = main_tensor(call(inputs)).movedim(out_axis, 0)
    pos = dim if y0.dim() > dim and y0.shape[dim] == T else None
    if pos is None:
        others = [a for a in range(1, y0.dim()) if y0.shape[a] == T]
        pos = others[0] if len(others) == 1 else None
    if pos is None:
        return [], {"causal": "output has no per-position axis"}, []
    cuts = list(range(1, T))
    n_pass = min(math.ceil(len(cuts) / B), opts.max_cut_passes)
    if n_pass * B < len(cuts):  # too many positions for the budget: spread the cuts evenly
        step = len(cuts) / (n_pass * B)
        cuts = sorted({cuts[int(i * step)] for i in range(n_pass * B)})
    scale = float(y0.abs().max()) + 1e-12
    leaks = _cut_leaks(call, inputs, y0, (dim, out_axis, pos), cuts, n_pass, opts.tol * 10 * scale, seed)
    leaks = [(row, c, first, size / scale) for row, c, first, size in leaks]
    meas = {"causal_cuts_tested": len(cuts), "causal_positions": T, "causal_passes": n_pass, "causal_leaks": len(leaks)}
    if not leaks:
        return ["causal_ok"], meas, []
    row, c, first, size = min(leaks, key=lambda t: t[2])
    findings = [
        Finding(
            text=f"output at position {first} of row {row} changed when only positions >= {c} were changed "
            f"({len(leaks)} of {len(cuts)} cuts leak; relative change {size:.3g})",
            data={"row": row, "cut": c, "position": first},
        )
    ]
    reads = _reads(call, inputs, y0, (dim, out_axis, pos), opts.tol * 10 * scale, seed, rows_independent)
    ptags, pmeas, pfind = position_pattern(reads)
    meas.update(pmeas)
    return ["causal_leak", *ptags], meas, findings + pfind


MAX_POSITIONS = 64  # positions perturbed one at a time for the pattern (evenly spread beyond that)


def _reads(
    call: Callable[[Any], Any],
    inputs: tuple[torch.Tensor, ...],
    y0: torch.Tensor,
    axes: tuple[int, int, int],
    thresh: float,
    seed: int,
    rows_independent: bool,
) -> dict[int, set[int]]:
    """For each perturbed input position s, the output positions t that moved when only s changed.

    Independent rows each take their own position (T/B forward passes); otherwise row 0 takes one
    position per pass.
    """
    dim, out_axis, paxis = axes
    B, T = inputs[0].shape[0], inputs[0].shape[dim]
    positions = (
        list(range(T)) if T <= MAX_POSITIONS else sorted({int(i * T / MAX_POSITIONS) for i in range(MAX_POSITIONS)})
    )
    per_pass = B if rows_independent else 1
    gen = torch.Generator().manual_seed(seed + 1)
    moved: dict[int, set[int]] = {}
    for p in range(0, len(positions), per_pass):
        chunk = positions[p : p + per_pass]
        xs = tuple(x.clone() for x in inputs)
        for row, s in enumerate(chunk):
            for x in xs:
                if x.dim() > dim and x.shape[dim] == T:
                    perturb(x, row, s, dim, gen, stop=s + 1)
        with torch.no_grad():
            y = main_tensor(call(xs)).movedim(out_axis, 0)
        diff = (y - y0).abs().movedim(paxis, 1).reshape(B, T, -1).amax(-1)  # (B, T)
        for row, s in enumerate(chunk):
            moved[s] = {int(t) for t in torch.nonzero(diff[row] > thresh).flatten()}
    return moved


def position_pattern(moved: dict[int, set[int]]) -> tuple[list[str], dict[str, Any], list[Finding]]:
    """Superset of causal dependence, or a scramble? `moved[s]`: output positions that read input s.

    Superset: every output position t reads itself and an unbroken run of earlier tested positions
    (plus, where it leaks, later ones). Scrambled: some t does not read itself, or reads an earlier
    position s1 but skips s2 with s1 < s2 <= t.
    """
    tested = sorted(moved)
    outputs = sorted(set().union(*moved.values()) | set(tested)) if moved else []
    not_self = [t for t in tested if t not in moved[t]]
    skips: list[tuple[int, int, int]] = []  # (t, skipped s2, earlier s1 read)
    for t in outputs:
        earlier = [s for s in tested if s <= t]
        read = [s for s in earlier if t in moved[s]]
        if read:
            skips += [(t, s, read[0]) for s in earlier if s > read[0] and t not in moved[s]][:1]
    future = sum(1 for s in tested for t in moved[s] if t < s)
    meas: dict[str, Any] = {
        "positions_tested": len(tested),
        "positions_not_reading_self": not_self[:16],
        "positions_skipping_earlier": len(skips),
        "future_reads": future,
    }
    if not (not_self or skips):
        meas["position_pattern"] = "superset"
        text = (
            f"the leak adds to causal dependence: every output position reads itself and an unbroken run of "
            f"earlier positions, plus {future} later position pair(s) (a missing or shifted mask)"
        )
        return ["causal_leak_superset"], meas, [Finding(text=text, data={"pattern": "superset"})]
    meas["position_pattern"] = "scrambled"
    if skips:
        t, s2, s1 = skips[0]
        text = f"output position {t} reads position {s1} but not {s2}, although {s2} <= {t}"
    else:
        text = f"output position {not_self[0]} does not read its own input position"
    text += (
        f" ({len(skips)} position(s) skip an earlier input, {len(not_self)} do not read themselves): positions "
        "are scrambled, not merely unmasked"
    )
    return ["positions_scrambled"], meas, [Finding(text=text, data={"pattern": "scrambled"})]
