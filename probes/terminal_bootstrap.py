"""terminal_bootstrap: does a TD loss still read the next state at terminal transitions?

A one-step TD target is `r + gamma * (1 - done) * V(s')`: at a transition that ended the episode the
next state must not matter, since the stored s' is a reset observation or padding. The probe finds a
batch shaped like transitions — two or more state tensors of one shape (s and s'), a per-row 0/1 flag
(float or bool: done, or its complement) and another per-row float (the reward) — and moves each state
tensor alone, only on the rows of one flag value, computing the loss again on an eval-mode copy. A
healthy loss, for the terminal value of the flag, answers to fewer state tensors on those rows than it
has; a loss that bootstraps across episode ends answers to all of them on every row, whatever the flag.
A batch with a single state tensor is a rollout of consecutive steps: `_rollout.py` judges it.

May import: schemas, the probe registry and helpers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field

from debug_agent.schemas import Finding, ProbeResult, Target

from ._common import as_float, clone_batch, copy_model, fork_rng, forward
from ._rollout import rollout_verdict
from .registry import ProbeContext, not_applicable, probe


class TerminalBootstrapOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tol: float = Field(default=1e-6, gt=0, description="relative loss change below which a tensor does not count")


Path = tuple[Any, ...]


def _leaves(x: Any, path: Path = ()) -> list[tuple[Path, torch.Tensor]]:
    """(path, tensor) for every tensor in a nested tuple/list/dict."""
    if isinstance(x, torch.Tensor):
        return [(path, x)]
    if isinstance(x, Mapping):
        return [leaf for k, v in x.items() for leaf in _leaves(v, (*path, k))]
    if isinstance(x, (tuple, list)) and not hasattr(x, "_fields"):
        return [leaf for i, v in enumerate(x) for leaf in _leaves(v, (*path, i))]
    return []


def _replace(x: Any, path: Path, new: torch.Tensor) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(x, Mapping):
        return {**x, head: _replace(x[head], rest, new)}
    items = list(x)
    items[head] = _replace(items[head], rest, new)
    return type(x)(items)


def _roles(batch: Any) -> tuple[list[Path], list[Path], list[Path]] | None:
    """(state paths, flag paths, other per-row float paths) of a transition-shaped batch, or None."""
    leaves = _leaves(batch)
    if not leaves or leaves[0][1].dim() == 0:
        return None
    rows = len(leaves[0][1])
    per_row = [(p, t) for p, t in leaves if t.dim() >= 1 and len(t) == rows]
    scalar = {p for p, t in per_row if t.dim() == 1 or (t.dim() == 2 and t.shape[1] == 1)}
    flags = [p for p, t in per_row if p in scalar and (t.is_floating_point() or t.dtype == torch.bool) and _binary(t)]
    floats = [p for p, t in per_row if p in scalar and t.is_floating_point()]
    shapes: dict[tuple[int, ...], list[Path]] = {}
    for p, t in per_row:
        if p not in scalar and t.is_floating_point():
            shapes.setdefault(tuple(t.shape[1:]), []).append(p)
    states = max(shapes.values(), key=len, default=[])
    # A transition has a reward beside its done flag: two per-row scalars at least, one of them a 0/1 flag.
    if not flags or len(set(flags) | set(floats)) < 2:
        return None
    return states, flags, floats


def _binary(t: torch.Tensor) -> bool:
    values = torch.unique(t.float())
    return bool(len(values) <= 2 and torch.isin(values, torch.tensor([0.0, 1.0])).all())


def _loss_of(target: Target, model: torch.nn.Module, seed: int) -> Callable[[Any], float]:
    def loss(batch: Any) -> float:
        with fork_rng(model), torch.no_grad():
            torch.manual_seed(seed)
            return as_float(target.loss_fn(forward(target, model, batch[0]), batch[1]))

    return loss


def _loss_runs_network(target: Target, model: torch.nn.Module, batch: Any) -> bool:
    """Whether loss_fn itself calls a module with parameters (a critic or target network on s')."""
    seen: list[bool] = []

    def hook(module: torch.nn.Module, _args: Any) -> None:
        if not isinstance(module, torch.nn.modules.loss._Loss) and next(module.parameters(), None) is not None:
            seen.append(True)

    with torch.no_grad():
        out = forward(target, model, batch[0])
        handle = torch.nn.modules.module.register_module_forward_pre_hook(hook)
        try:
            target.loss_fn(out, batch[1])
        finally:
            handle.remove()
    return bool(seen)


def _answering(loss: Callable[[Any], float], batch: Any, states: list[Path], rows: torch.Tensor, tol: float) -> int:
    """How many state tensors change the loss when moved on `rows` alone."""
    base = loss(batch)
    gen = torch.Generator().manual_seed(0)
    count = 0
    for path in states:
        x = dict(_leaves(batch))[path]
        noise = torch.randn(x.shape, generator=gen, dtype=x.dtype) * (x.float().std().item() + 1e-3)
        moved = x + noise * rows.reshape(-1, *([1] * (x.dim() - 1))).to(x.dtype)
        if abs(loss(_replace(batch, path, moved)) - base) > tol * (1.0 + abs(base)):
            count += 1
    return count


@probe(
    headline=("answering_states",),
    outcomes=("bootstraps_terminal", "terminal_masked", "rollout_bootstraps_terminal", "rollout_masked"),
    requires=("model", "batch", "loss_fn"),
    cost=4.0,  # a dozen forwards (s/s' form) or loss gradients on fixed outputs (rollout form)
    options=TerminalBootstrapOptions,
)
def terminal_bootstrap(target: Target, ctx: ProbeContext, options: TerminalBootstrapOptions) -> ProbeResult:
    """A TD or GAE loss: does the next state's value still count at episode ends (a missing (1 - done))?

    Only for batches shaped like transitions: a per-row 0/1 flag, another per-row float (the reward) and
    float state tensors. With two or more state tensors of one shape (s and s'), each is moved alone on
    the rows of one flag value and the loss computed again (eval-mode copy): answering to fewer state
    tensors on the rows of some flag value is `terminal_masked`; answering to all of them on every row,
    whatever flag and value, is `bootstraps_terminal`. With one state tensor the batch is a rollout of
    consecutive steps whose returns read the model's value of the next row: the value output is moved at
    the row after each step of one flag value, and the loss gradient at that step is compared with the
    same move after ordinary steps (`rollout_bootstraps_terminal` when they match, `rollout_masked` when
    the flagged steps answer far less).
    """
    batch = clone_batch(target.batch)
    roles = _roles(batch)
    if roles is None:
        return not_applicable("terminal_bootstrap", "the batch does not look like transitions (s, s', flag, reward)")
    states, flags, _ = roles
    model = copy_model(target).eval()
    if len(states) < 2:  # one state tensor: a rollout of consecutive steps, bootstrapped from the next row
        return rollout_verdict(target, model, batch, [dict(_leaves(batch))[f] for f in flags], ctx.seed)
    if not _loss_runs_network(target, model, batch):
        # A state tensor among the targets that no network reads in the loss is a regression target
        # (a dynamics model predicting s'), not a next state to bootstrap from.
        states = [p for p in states if p[0] != 1]
        if len(states) < 2:
            return not_applicable("terminal_bootstrap", "the loss evaluates no network on the next state")
    loss = _loss_of(target, model, ctx.seed)
    seen: list[dict[str, Any]] = []
    leaves = dict(_leaves(batch))
    for flag in flags:
        for value in (1.0, 0.0):
            rows = leaves[flag].float().reshape(-1) == value
            if rows.any():
                n = _answering(loss, batch, states, rows, options.tol)
                seen.append({"flag": _name(flag), "value": value, "rows": int(rows.sum()), "answering": n})
    meas: dict[str, Any] = {"state_tensors": len(states), "answering_states": seen}
    masked = [s for s in seen if 1 <= s["answering"] < len(states)]
    if masked:
        s = masked[0]
        text = (
            f"on the {s['rows']} rows where {s['flag']} is {s['value']:g} the loss answers to {s['answering']} of "
            f"{len(states)} state tensors: the next state is masked out at those transitions"
        )
        return ProbeResult(
            name="terminal_bootstrap", status="passed", outcomes=["terminal_masked"], measurements=meas, summary=text
        )
    if seen and all(s["answering"] == len(states) for s in seen):
        text = (
            f"the loss answers to all {len(states)} state tensors on every row, whichever value the 0/1 flag(s) "
            f"{', '.join(sorted({s['flag'] for s in seen}))} take: the TD target still reads the next state at "
            "terminal transitions (no (1 - done) factor)"
        )
        return ProbeResult(
            name="terminal_bootstrap", status="failed", outcomes=["bootstraps_terminal"], measurements=meas,
            findings=[Finding(text=text, data={"state_tensors": len(states)})], summary=text.split(":")[0],
        )  # fmt: skip
    return ProbeResult(
        name="terminal_bootstrap",
        status="inconclusive",
        measurements=meas,
        summary="the loss ignores some state tensors on every row: no verdict on terminal transitions",
    )


def _name(path: Path) -> str:
    side = ("inputs", "targets")[path[0]] if path and path[0] in (0, 1) else "batch"
    return side + "".join(f"[{p!r}]" for p in path[1:])
