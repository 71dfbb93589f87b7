"""The rollout form of terminal_bootstrap: consecutive steps whose returns read the next row's value.

A rollout buffer (one state tensor, a per-row done flag, rewards) trains on returns or GAE built from
the value the model gives each row: step t reads V[t+1] unless the episode ended at t. The experiment
moves the model's value output at row t+1 and measures how the loss gradient at row t (all outputs)
changes, once for the steps of one flag value and once for ordinary steps. Ordinary steps answer
directly (gamma * V[t+1]); masked episode ends answer only through batch-wide terms such as advantage
normalisation, far less; ends that bootstrap answer like ordinary steps.

May import: schemas, the probe helpers.
"""

from __future__ import annotations

from typing import Any

import torch

from debug_agent.schemas import Finding, ProbeResult, Target

from ._common import fork_rng, forward, input_tensors, with_tensors

MASKED, BOOTSTRAPS = 0.25, 0.6  # gradient change at flagged steps over that at ordinary steps


def _row_grads(target: Target, out: Any, leaves: list[torch.Tensor], y: Any, rows: int) -> torch.Tensor:
    """d loss / d outputs, summed in absolute value per row: (rows, total output width)."""
    live = [t.detach().clone().requires_grad_(t.is_floating_point()) for t in leaves]
    loss = target.loss_fn(with_tensors(out, live), y)
    grads = torch.autograd.grad(loss, [t for t in live if t.requires_grad], allow_unused=True)
    parts = [g.reshape(rows, -1) for g in grads if g is not None and g.dim() >= 1 and len(g) == rows]
    return torch.cat(parts, 1) if parts else torch.zeros(rows, 0)


def _response(target: Target, out: Any, y: Any, value: int, row: int) -> tuple[float, float]:
    """Gradient change at `row`, and at a far row (the batch-wide level), when the value output moves at
    the row after it alone."""
    leaves = input_tensors(out)
    rows_n = len(leaves[value])
    base = _row_grads(target, out, leaves, y, rows_n)
    v = leaves[value]
    moved = list(leaves)
    bumped = v.clone()
    bumped[row + 1] = bumped[row + 1] + float(v.float().std()) + 1.0
    moved[value] = bumped
    change = (_row_grads(target, out, moved, y, rows_n) - base).abs().sum(1)  # (rows,)
    far = (row + rows_n // 2) % rows_n
    far = far if far not in (row, row + 1) else (far + 2) % rows_n
    return float(change[row]), float(change[far])


def _signal(target: Target, out: Any, y: Any, value: int, rows: list[int]) -> tuple[float, float]:
    """Mean (adjacent, far) gradient change over up to 6 rows."""
    pairs = [_response(target, out, y, value, r) for r in rows[:6]]
    return sum(p[0] for p in pairs) / len(pairs), sum(p[1] for p in pairs) / len(pairs)


def rollout_verdict(
    target: Target, model: torch.nn.Module, batch: Any, flags: list[torch.Tensor], seed: int
) -> ProbeResult:
    """The verdict for a one-state-tensor batch (see the module docstring)."""
    with fork_rng(model), torch.no_grad():
        torch.manual_seed(seed)
        out = forward(target, model, batch[0])
    leaves = input_tensors(out)
    rows_n = len(flags[0])
    values = [
        i for i, t in enumerate(leaves)
        if t.is_floating_point() and t.dim() >= 1 and len(t) == rows_n and t[0].numel() == 1
    ]  # fmt: skip
    if not values:
        return ProbeResult(
            name="terminal_bootstrap", status="not_applicable", summary="no per-row value output to bootstrap from"
        )
    seen: list[dict[str, Any]] = []
    for f, flag in enumerate(flags):
        for v in (1.0, 0.0):
            hits = (flag.reshape(-1) == v).tolist()[: rows_n - 1]
            term = [i for i, h in enumerate(hits) if h]
            plain = [i for i, h in enumerate(hits) if not h]
            if not (term and plain):
                continue
            for i in values:
                near, far = _signal(target, out, batch[1], i, plain)
                if near > 3 * far and near > 0:  # ordinary steps read the next row's value directly
                    t_near, t_far = _signal(target, out, batch[1], i, term)
                    ratio = max(t_near - t_far, 0.0) / (near - far)
                    seen.append({"flag": f, "value": v, "output": i, "ratio": round(ratio, 4)})
    return _verdict(seen)


def _verdict(seen: list[dict[str, Any]]) -> ProbeResult:
    meas: dict[str, Any] = {"form": "rollout", "flagged_over_ordinary": seen}
    if not seen:  # no step reads the next row's value: not a bootstrapped rollout (or Monte Carlo returns)
        return ProbeResult(
            name="terminal_bootstrap", status="not_applicable", measurements=meas,
            summary="no step's loss gradient answers to the next row's value: not a bootstrapped rollout",
        )  # fmt: skip
    if any(s["ratio"] < MASKED for s in seen):
        s = min(seen, key=lambda s: s["ratio"])
        text = (
            f"moving the value of the row after each flagged step changes the loss gradient there {s['ratio']:.2f}x "
            "as much as after ordinary steps: returns stop at episode ends"
        )
        return ProbeResult(
            name="terminal_bootstrap", status="passed", outcomes=["rollout_masked"], measurements=meas, summary=text
        )
    if all(s["ratio"] > BOOTSTRAPS for s in seen):
        text = (
            "moving the value of the row after a step changes the loss gradient at that step as much whether the "
            f"step ended its episode or not (ratio {min(s['ratio'] for s in seen):.2f} or more): returns or GAE "
            "bootstrap across episode ends from the next episode's first value"
        )
        return ProbeResult(
            name="terminal_bootstrap", status="failed", outcomes=["rollout_bootstraps_terminal"], measurements=meas,
            findings=[Finding(text=text)], summary=text.split(":")[0],
        )  # fmt: skip
    return ProbeResult(
        name="terminal_bootstrap", status="inconclusive", measurements=meas,
        summary="flagged steps answer to the next row's value partly: no verdict on episode ends",
    )  # fmt: skip
