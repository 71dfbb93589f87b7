"""Watch the learning-rate schedulers a training run steps (used by lr_schedule and the script Observer).

`ScheduleWatch` wraps `step` of torch's scheduler classes while it is installed. For each scheduler it
records how many optimizer steps came before each of its `step()` calls, and, at its first call, projects
its learning rate over half an epoch of calls at that pace (a decay that never rises, over a few epochs),
on a copy: the copy steps a throwaway optimizer that holds the same hyperparameters, so the user's
scheduler and optimizer never move. A schedule written in epochs (StepLR, cosine over N epochs) and
stepped once per batch reaches its end within the first epoch (or, for a slow decay, within a few); a
schedule written in iterations does not.

May import: torch, schemas, the probe helpers.
"""

from __future__ import annotations

import copy
import functools
import warnings
from collections.abc import Callable
from typing import Any

import torch
from torch.optim import lr_scheduler as lrs

from debug_agent.schemas import ScheduleRecord, Site

from ._common import called_from_library, display_path, is_user_file, user_frame

MAX_PROJECTED = 20_000  # step() calls projected at most (half an epoch of a very large loader)
KEEP_CALLS = 32
# Schedulers whose step needs a metric or drives other schedulers through the user's optimizer:
# their projection on a copy would not be their own, so they get none.
NOT_PROJECTED = (lrs.ReduceLROnPlateau, lrs.SequentialLR, lrs.ChainedScheduler)
# Schedules torch documents as stepped after every batch: their low points are by design.
PER_BATCH_BY_DESIGN = (lrs.CyclicLR, lrs.OneCycleLR)
# Decays that never come back up: stepped per batch, one written in epochs (StepLR(step_size=10, gamma=0.95))
# first changes within the first epoch and ends within a few, so they are also projected over LONG_EPOCHS.
STEP_DECAYS = (lrs.StepLR, lrs.MultiStepLR, lrs.ExponentialLR)
LONG_EPOCHS = 5


def scheduler_classes() -> list[type]:
    """torch's scheduler classes that define their own `step` (subclasses defined later still reach
    the base class's through super())."""
    seen: list[type] = []
    todo = [lrs.LRScheduler]
    while todo:
        cls = todo.pop()
        if cls not in seen:
            seen.append(cls)
            todo.extend(cls.__subclasses__())
    return [c for c in seen if "step" in vars(c)]


class ScheduleWatch:
    """Records scheduler step() calls. `optimizer_steps()` says how many optimizer steps the run has
    taken; `epoch_batches()` how many batches an epoch of the training data has (None: unknown)."""

    def __init__(self, optimizer_steps: Callable[[], int], epoch_batches: Callable[[], int | None]) -> None:
        self.optimizer_steps = optimizer_steps
        self.epoch_batches = epoch_batches
        self._records: dict[int, ScheduleRecord] = {}
        self._inside = 0  # >0 inside a step() (nested super() calls, children, the projection)
        self._patches: list[tuple[type, Any]] = []

    def wrap(self, orig: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(orig)
        def step(sched: Any, *args: Any, **kwargs: Any) -> Any:
            first = id(sched) not in self._records
            if self._inside or getattr(sched, "_is_initial", False) or (first and len(self._records) >= 8):
                return orig(sched, *args, **kwargs)  # nested, the constructor's initial step, or a ninth scheduler
            if first:
                self._records[id(sched)] = self._start(sched)
            rec = self._records[id(sched)]
            if len(rec.calls_at) < KEEP_CALLS:
                rec.calls_at.append(self.optimizer_steps())
            self._inside += 1
            try:
                return orig(sched, *args, **kwargs)
            finally:
                self._inside -= 1

        return step

    def install(self) -> ScheduleWatch:
        for cls in scheduler_classes():
            self._patches.append((cls, vars(cls)["step"]))
            cls.step = self.wrap(vars(cls)["step"])  # type: ignore[method-assign]
        return self

    def remove(self) -> None:
        for cls, orig in reversed(self._patches):
            cls.step = orig  # type: ignore[method-assign]
        self._patches = []

    def __enter__(self) -> ScheduleWatch:
        return self.install()

    def __exit__(self, *exc: object) -> None:
        self.remove()

    def records(self) -> list[ScheduleRecord]:
        return [r.model_copy(deep=True) for r in self._records.values()]

    def _start(self, sched: Any) -> ScheduleRecord:
        frame = user_frame()
        where = Site(file=display_path(frame[0]), line=frame[1], code=frame[2]) if frame else None
        groups = getattr(getattr(sched, "optimizer", None), "param_groups", None) or [{}]
        rec = ScheduleRecord(
            kind=type(sched).__name__,
            where=where,
            lr_start=_lr(groups[0]),
            per_batch_by_design=isinstance(sched, PER_BATCH_BY_DESIGN) or _library_paced(sched),
        )
        rec.epoch_batches = self.epoch_batches()
        if rec.epoch_batches and not isinstance(sched, NOT_PROJECTED):
            half = min(rec.epoch_batches // 2, MAX_PROJECTED)
            long = min(LONG_EPOCHS * rec.epoch_batches, MAX_PROJECTED) if isinstance(sched, STEP_DECAYS) else half
            self._inside += 1
            try:
                _project(sched, rec, half, max(half, long))
            finally:
                self._inside -= 1
        return rec


def _library_paced(sched: Any) -> bool:
    """A schedule a library sizes and steps itself: step() called from its code (a Trainer's loop), or a
    LambdaLR whose functions a library wrote (`get_linear_schedule_with_warmup(num_training_steps=...)`
    counts in optimizer steps by its contract)."""
    if called_from_library():
        return True
    for fn in getattr(sched, "lr_lambdas", None) or []:
        code = getattr(getattr(fn, "func", fn), "__code__", None)
        if code is not None and not is_user_file(code.co_filename):
            return True
    return False


def _lr(group: dict[str, Any]) -> float | None:
    lr = group.get("lr")
    return float(lr) if isinstance(lr, (int, float, torch.Tensor)) else None


def _project(sched: Any, rec: ScheduleRecord, calls: int, long: int) -> None:
    """Step a copy of `sched` `long` times on a throwaway optimizer with the same hyperparameters and record
    the lowest learning rate of group 0 relative to its peak over the first `calls` steps and over all of
    them, and the step at which it first changed."""
    try:
        sim = _copy(sched)
    except (TypeError, AttributeError, RuntimeError, copy.Error):
        return  # state a copy cannot take (a lambda over a lock, a device handle): no projection
    start = peak = _lr(sim.optimizer.param_groups[0]) or 0.0
    lo_ratio, lo_at, first_change = 1.0, 0, None
    rec.projected_steps, rec.projected_min_ratio, rec.projected_min_at = 0, 1.0, 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the copy steps without optimizer.step(): torch warns about order
        for k in range(1, long + 1):
            sim.step()
            lr = _lr(sim.optimizer.param_groups[0]) or 0.0
            if first_change is None and lr != start:
                first_change = k
                rec.first_change_ratio = round(lr / start, 6) if start else None
            peak = max(peak, lr)
            if peak > 0 and lr / peak < lo_ratio:
                lo_ratio, lo_at = lr / peak, k
            if k == calls:
                rec.projected_steps = calls
                rec.projected_min_ratio = round(lo_ratio, 6)
                rec.projected_min_at = lo_at
    if long > calls:
        rec.long_steps, rec.long_min_ratio, rec.long_min_at = long, round(lo_ratio, 6), lo_at
    rec.first_change_at = first_change


def _copy(sched: Any) -> Any:
    """A copy of the scheduler driving a throwaway SGD whose param groups hold the same hyperparameters."""
    groups = []
    for g in sched.optimizer.param_groups:
        hyper = {k: copy.deepcopy(v) for k, v in g.items() if k != "params"}
        groups.append({**hyper, "params": [torch.zeros(1, requires_grad=True)]})
    shadow = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    shadow.param_groups = groups
    sim = copy.copy(sched)
    # References to the scheduler or its optimizer inside its state (a bound scale function) point at the copies.
    memo: dict[int, Any] = {id(sched): sim, id(sched.optimizer): shadow}
    sim.__dict__ = copy.deepcopy({k: v for k, v in vars(sched).items() if k != "optimizer"}, memo)
    sim.optimizer = shadow
    return sim
