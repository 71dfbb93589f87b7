"""Trainable state that lives outside the model: copies for the probes, rebound into the user's functions.

Real training code often keeps modules with parameters beside the model rather than inside it: learned
task weights for a multi-task loss, an ArcFace/CosFace margin head, class centres of a centre loss, a
learned temperature. The user's `loss_fn` (or optimizer factory, or `train_step`) reaches them as a module
global or through a closure. A deep copy of the model does not copy them, so without this a probe's loss
would read and accumulate gradients into the user's own tensors. The same goes for a function that reads
the model itself rather than its argument (a Bellman target computed with the online critic, a loss that
is a method of the model): there the probe's own copy of the model takes its place.

`LossState.find(target)` collects such modules; `bind()` gives the user's functions back with each of them
replaced by a probe-owned copy (a fresh globals mapping and fresh closure cells, same code, so reported
lines stay the user's), and `reset()` makes new copies from the originals so every probe starts from the
user's values. A function that reaches them some other way (through a helper function's own globals) is
not rebound: the isolation check then still sees the original run and the probes say so.

May import: schemas, errors (and the sibling helper `_isolate`).
"""

from __future__ import annotations

import copy
import types
from collections.abc import Callable, Iterator
from typing import Any

import torch
from torch import nn

from ._isolate import _filled

CALLABLES = ("loss_fn", "optimizer", "train_step", "eval_fn", "metric_fn", "call_model")


def _stateful(obj: Any) -> bool:
    """A module with parameters or buffers, or a bare trainable tensor (an nn.Parameter kept as a global)."""
    if isinstance(obj, torch.Tensor):
        return obj.is_leaf and obj.requires_grad
    return isinstance(obj, nn.Module) and (any(True for _ in obj.parameters()) or any(True for _ in obj.buffers()))


def _names(code: types.CodeType) -> set[str]:
    """Global names a function's code (and the lambdas and comprehensions inside it) reads."""
    out = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            out |= _names(const)
    return out


class LossState:
    """Modules with trainable state reached by the target's functions but not part of its model."""

    def __init__(self, originals: dict[int, nn.Module], model_key: int) -> None:
        self.originals = originals  # id(original) -> original module
        self.model_key = model_key  # id of the target's model: its copy is the probe's own model
        self.copies: dict[int, nn.Module] = {}
        self._slots: list[Callable[[], None]] = []  # each refills one globals entry or closure cell
        self.reset()

    @classmethod
    def find(cls, target: Any) -> LossState | None:
        """The modules the target's functions reach outside its model, or None when there are none."""
        inside = {id(m) for m in target.model.modules()}
        found: dict[int, nn.Module] = {}
        for field in CALLABLES:
            for obj in _reached(getattr(target, field)):
                # The model itself (a Bellman target from the online network, a loss that is a method of the
                # model) becomes each probe's copy; a module that holds it (a wrapper) stays a leak.
                if obj is target.model or (_stateful(obj) and not _holds(obj, inside, target.model)):
                    found[id(obj)] = obj
        return cls(found, id(target.model)) if found else None

    def reset(self, model: nn.Module | None = None) -> None:
        """New copies from the originals' current values (each probe starts where the user's run is);
        `model`, the probe's copy of the target's model, stands wherever the functions read the model."""
        # The model is never deep-copied here: until a probe's copy is given, the functions read the original.
        self.copies = {
            k: (model if model is not None else m) if k == self.model_key else copy.deepcopy(m)
            for k, m in self.originals.items()
        }
        for refill in self._slots:
            refill()

    def module_ids(self) -> set[int]:
        return {id(m) for c in self.copies.values() if isinstance(c, nn.Module) for m in c.modules()}

    def named_parameters(self) -> Iterator[tuple[str, torch.Tensor]]:
        """Trainable tensors outside the model (the model's own copy is the probe's to inspect)."""
        for k, c in self.copies.items():
            if k == self.model_key:
                continue
            if isinstance(c, torch.Tensor):
                yield f"tensor{tuple(c.shape)}", c
                continue
            for n, p in c.named_parameters():
                yield f"{type(c).__name__}.{n}", p

    def _reads(self, value: Any) -> bool:
        """An original itself, or a list/tuple holding one (`extra = [temperature]` beside the params)."""
        if isinstance(value, (list, tuple)):
            return any(id(v) in self.originals for v in value)
        return id(value) in self.originals

    def _swap(self, value: Any) -> Any:
        """The probe's copy for an original; a list/tuple rebuilt with the copies in place."""
        if isinstance(value, (list, tuple)):
            return type(value)(self.copies.get(id(v), v) for v in value)
        return self.copies[id(value)]

    def bind(self, fn: Any) -> Any:
        """`fn` reading the probe's copies wherever it read an original (unchanged when it reads none)."""
        if isinstance(fn, nn.Module) and id(fn) in self.originals:
            key = id(fn)
            return lambda *a, **k: self.copies[key](*a, **k)
        if isinstance(fn, types.MethodType) and id(fn.__self__) in self.originals:
            key, name = id(fn.__self__), fn.__func__.__name__
            return lambda *a, **k: getattr(self.copies[key], name)(*a, **k)
        if not isinstance(fn, types.FunctionType):
            return fn
        names = [n for n in _names(fn.__code__) if n in fn.__globals__ and self._reads(fn.__globals__[n])]
        cells = [i for i, c in enumerate(fn.__closure__ or ()) if _filled(c) and self._reads(c.cell_contents)]
        if not names and not cells:
            return fn
        scope = dict(fn.__globals__)
        closure = tuple(types.CellType(c.cell_contents) if _filled(c) else c for c in fn.__closure__ or ()) or None
        for n in names:
            value = fn.__globals__[n]
            self._slots.append(lambda n=n, value=value: scope.__setitem__(n, self._swap(value)))
        for i in cells:
            value, cell = fn.__closure__[i].cell_contents, closure[i]
            self._slots.append(lambda cell=cell, value=value: setattr(cell, "cell_contents", self._swap(value)))
        bound = types.FunctionType(fn.__code__, scope, fn.__name__, fn.__defaults__, closure)
        bound.__kwdefaults__ = fn.__kwdefaults__
        bound.__qualname__ = fn.__qualname__
        for refill in self._slots:
            refill()
        return bound


def _holds(obj: Any, inside: set[int], model: nn.Module) -> bool:
    """Whether `obj` is or holds part of the model (a wrapper around it, one of its own parameters)."""
    if isinstance(obj, torch.Tensor):
        return any(obj is p for p in model.parameters())
    return any(id(m) in inside for m in obj.modules())


def _reached(fn: Any) -> list[Any]:
    """Objects a user function reads directly: itself (a module), its bound self, globals it names, closure
    cells, and the items of a short list or tuple among those."""
    if fn is None:
        return []
    if isinstance(fn, nn.Module):
        return [fn]
    if isinstance(fn, types.MethodType):
        return [fn.__self__]
    if not isinstance(fn, types.FunctionType):
        return []
    named = [fn.__globals__[n] for n in _names(fn.__code__) if n in fn.__globals__]
    found = named + [c.cell_contents for c in fn.__closure__ or () if _filled(c)]
    # One level into plain lists and tuples: extra tensors handed to the optimizer beside the params.
    return found + [v for x in found if isinstance(x, (list, tuple)) and len(x) <= 64 for v in x]
