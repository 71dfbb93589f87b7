"""DataLoader observation for the Observer: which loaders a run iterates, train or evaluation, kept
batches (bounded copies), and the repeat-first-batch intervention.

A loader is keyed by where the user's code iterated it (`file:line`), so a fresh run of the same
script finds the same loader again. Its role is `train` when a backward pass followed one of its
batches, else `eval` once it yielded batches.

May import: torch, schemas, the isolation room's helpers.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from debug_agent.isolation import _observed as h
from debug_agent.schemas.observation import LoaderRecord, Site

if TYPE_CHECKING:
    from debug_agent.isolation.observe import Observer

KEEP_BATCHES = 4
DRAIN_EVAL_BATCHES = 8  # after the step bound: batches each evaluation loader may still yield


@dataclass
class _Loader:
    record: LoaderRecord
    kept: list[Any] = field(default_factory=list)
    first: Any = None  # the first batch (a copy), for the repeat intervention


class _Iter:
    """Wraps a DataLoader iterator: counts and keeps batches, or repeats the first one."""

    def __init__(self, hooks: LoaderHooks, state: _Loader, inner: Iterator[Any], repeat: bool) -> None:
        self.hooks = hooks
        self.state = state
        self.inner = inner
        self.repeat = repeat

    def __iter__(self) -> _Iter:
        return self

    def __len__(self) -> int:
        return len(self.inner)  # type: ignore[arg-type]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def __next__(self) -> Any:
        if self.hooks.draining:
            self.hooks.drain_next(self.state)
        self.hooks.inside += 1
        try:
            batch = next(self.inner)
        finally:
            self.hooks.inside -= 1
        st = self.state
        st.record.batches += 1
        self.hooks.current = st
        limit = self.hooks.observer.max_elems
        if st.first is None:
            st.first = h.copy_small(batch, limit)
        if len(st.kept) < KEEP_BATCHES:
            kept = h.copy_small(batch, limit)
            if kept is not None:
                st.kept.append(kept)
                st.record.kept = len(st.kept)
        if self.repeat and st.first is not None:
            return h.copy_small(st.first, limit)
        return batch


def _length(loader: Any) -> int | None:
    try:
        return len(loader)
    except TypeError:  # an IterableDataset without __len__
        return None


class LoaderHooks:
    """The DataLoader half of an Observer."""

    def __init__(self, observer: Observer) -> None:
        self.observer = observer
        self.loaders: dict[str, _Loader] = {}
        self.current: _Loader | None = None
        self.inside = 0  # >0 while a wrapped iterator is fetching (nested loaders are not re-wrapped)
        self._repeating: str | None = None
        self.draining = False  # the step bound was reached: end the epoch so evaluation can run
        self._drained: dict[str, int] = {}

    def start_draining(self) -> bool:
        """At the step bound: end the training loader's epoch (so the script's evaluation runs) instead of
        stopping at once. False when no training loader is being iterated (stop now)."""
        if self.current is None or self.current.record.role != "train":
            return False
        self.draining = True
        return True

    def drain_next(self, state: _Loader) -> None:
        """While draining: the training loader is exhausted; evaluation loaders yield a few more batches."""
        from debug_agent.isolation.observe import StepLimitReached

        if state.record.role == "train":
            raise StopIteration
        n = self._drained.get(state.record.key, 0)
        if n >= DRAIN_EVAL_BATCHES:
            raise StopIteration
        self._drained[state.record.key] = n + 1
        if len(self._drained) > 4:
            raise StepLimitReached("evaluation after the step bound visited several loaders")

    def wrap_iter(self, orig: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(orig)
        def __iter__(loader: Any) -> Any:  # noqa: N807 - replaces DataLoader.__iter__
            it = orig(loader)
            if self.inside:
                return it
            where = h.site()
            key = f"{where.file}:{where.line}" if where else f"<loader {len(self.loaders)}>"
            state = self.loaders.get(key)
            if state is None:
                if len(self.loaders) >= 16:
                    return it
                state = self.loaders[key] = _Loader(
                    LoaderRecord(
                        key=key,
                        batch_size=getattr(loader, "batch_size", None),
                        length=_length(loader),
                        num_workers=int(getattr(loader, "num_workers", 0) or 0),
                        where=where if isinstance(where, Site) else None,
                    )
                )
            if self.draining and state.record.role == "train":
                from debug_agent.isolation.observe import StepLimitReached

                raise StepLimitReached("the training loader was iterated again after the step bound")
            return _Iter(self, state, it, self._should_repeat(key))

        return __iter__

    def _should_repeat(self, key: str) -> bool:
        iv = self.observer.intervention
        if iv is None or iv.kind not in ("repeat_first_batch", "lr_sweep"):
            return False
        if self._repeating is None and iv.loader_key in (None, key):
            self._repeating = key
        return self._repeating == key

    def backward_seen(self) -> None:
        """A backward pass ran: the loader that gave the latest batch feeds training."""
        if self.current is not None:
            self.current.record.role = "train"

    def records(self) -> list[LoaderRecord]:
        out = []
        for st in self.loaders.values():
            rec = st.record.model_copy()
            if rec.role == "unknown" and rec.batches:
                rec.role = "eval"
            out.append(rec)
        return out

    def batches(self, key: str) -> list[Any]:
        """The kept copies of a loader's first batches."""
        st = self.loaders.get(key)
        return list(st.kept) if st else []

    def train_length(self) -> int | None:
        """Batches per epoch of the loader feeding training (the one iterated now), when it has a length."""
        st = self.current
        return st.record.length if st is not None and st.record.role == "train" else None

    def train_key(self) -> str | None:
        return next((k for k, st in self.loaders.items() if st.record.role == "train"), None)
