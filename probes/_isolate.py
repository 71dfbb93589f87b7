"""Copies that share nothing with the user's objects: how probes get a model, verified once per target.

A deep copy is checked for two kinds of leak: parameter/buffer storage shared with the original
(data_ptr), and modules of the original that run while the copy runs (forward pre-hooks on the
original's modules, e.g. a submodule reached through a lambda attribute that `copy.deepcopy` keeps
pointing at the original). When the deep copy leaks and a factory is known (the worker can call
`make_target()` again), a fresh model with the original's state loaded is checked the same way and
used instead. When neither is isolated, the target records which attribute leaks and every probe
that needs a copy becomes an `error` with that reason.

May import: schemas, errors (and the sibling helpers in _common).
"""

from __future__ import annotations

import copy
import functools
import types
from collections.abc import Callable, Mapping
from typing import Any

import torch
from torch import nn
from torch.nn.modules.module import register_module_forward_pre_hook

from debug_agent.errors import DebugAgentError
from debug_agent.schemas import Target

_SKIP = {"_modules", "_parameters", "_buffers", "_non_persistent_buffers_set", "training"}


def deepcopy_module(model: nn.Module) -> nn.Module:
    """`copy.deepcopy(model)`, where tensors a forward left on the modules (`self.last_attn = att`, still in
    the autograd graph, which deepcopy refuses) are copied detached."""
    memo: dict[int, Any] = {}
    for m in model.modules():
        for tensor in _graph_tensors(list(vars(m).values())):
            memo[id(tensor)] = tensor.detach().clone()
    return copy.deepcopy(model, memo)


def _graph_tensors(value: Any, depth: int = 0) -> list[torch.Tensor]:
    """Tensors still in the autograd graph, also inside the tuples, lists and dicts a forward left
    (`self.attn_weights = (alphas, betas)`); three levels deep is as far as such caches go."""
    if isinstance(value, torch.Tensor):
        return [value] if value.grad_fn is not None else []
    if depth > 3:
        return []
    items = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else ()
    return [t for item in items for t in _graph_tensors(item, depth + 1)]


def _tensors(model: nn.Module) -> list[tuple[str, torch.Tensor]]:
    out = [(f"parameter {n}", p) for n, p in model.named_parameters(remove_duplicate=False)]
    return out + [(f"buffer {n}", b) for n, b in model.named_buffers(remove_duplicate=False) if b is not None]


def _storage(t: torch.Tensor) -> int:
    return t.untyped_storage().data_ptr()


def _shared_storage(orig: nn.Module, dup: nn.Module) -> str | None:
    mine = {_storage(t): n for n, t in _tensors(orig) if t.numel()}
    for name, t in _tensors(dup):
        if t.numel() and _storage(t) in mine:
            return f"{name} of the copy shares storage with the original's {mine[_storage(t)].split(' ', 1)[1]}"
    return None


def _refers(val: Any, originals: set[int], depth: int = 0) -> bool:
    """Whether a non-module attribute reaches one of the original's modules (closures, bound methods, partials)."""
    if depth > 3:
        return False
    if id(val) in originals:
        return True
    nxt: list[Any] = []
    if isinstance(val, types.FunctionType):
        nxt = [c.cell_contents for c in val.__closure__ or () if _filled(c)]
        nxt += [val.__defaults__ or ()]
    elif isinstance(val, types.MethodType):
        nxt = [val.__self__, val.__func__]
    elif isinstance(val, functools.partial):
        nxt = [val.func, *val.args, *val.keywords.values()]
    elif isinstance(val, (tuple, list, set)):
        nxt = list(val)
    elif isinstance(val, Mapping):
        nxt = list(val.values())
    return any(_refers(v, originals, depth + 1) for v in nxt)


def _filled(cell: Any) -> bool:
    try:
        cell.cell_contents  # noqa: B018 - an empty cell raises ValueError
    except ValueError:
        return False
    return True


def _leaking_attribute(orig: nn.Module, dup: nn.Module) -> str | None:
    originals = {id(m) for m in orig.modules()}
    for name, mod in dup.named_modules():
        for attr, val in vars(mod).items():
            if attr in _SKIP or isinstance(val, (nn.Module, torch.Tensor)) or not _refers(val, originals):
                continue
            path = f"{name}.{attr}" if name else attr
            kind = "a closure over" if isinstance(val, (types.FunctionType, functools.partial)) else "a reference to"
            return f"module {path} is {kind} the original's modules"
    return None


def _reachable(model: nn.Module) -> set[int]:
    """Ids of the model's modules: registered ones and those kept in plain lists, tuples or dicts (a deep
    copy copies those too, so they are the copy's own even though nn.Module does not register them)."""
    seen: set[int] = set()
    todo: list[Any] = [model]
    while todo:
        obj = todo.pop()
        if isinstance(obj, nn.Module):
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            todo += [v for k, v in vars(obj).items() if k not in _SKIP or k == "_modules"]
            todo += list(obj._modules.values())
        elif isinstance(obj, (list, tuple, set)):
            todo += [v for v in obj if isinstance(v, (nn.Module, list, tuple, set, dict))]
        elif isinstance(obj, dict):
            todo += [v for v in obj.values() if isinstance(v, (nn.Module, list, tuple, set, dict))]
    return seen


def _runs_original(target: Target, orig: nn.Module, dup: nn.Module) -> str | None:
    """Run the copy's forward (training mode, under a forked RNG): every module that runs must be the copy's."""
    from ._common import clone_batch, fork_rng, forward

    if target._loss_state is not None:
        target._loss_state.reset(dup)
    own = _reachable(dup) | (target._loss_state.module_ids() if target._loss_state else set())
    orig_names = {id(m): n or type(orig).__name__ for n, m in orig.named_modules()}
    runs: list[dict[int, tuple[nn.Module, str]]] = []  # modules kept referenced: ids stay unique

    def seen(mod: nn.Module, _args: Any) -> None:
        stateful = any(True for _ in mod.parameters(recurse=False)) or any(True for _ in mod.buffers(recurse=False))
        if id(mod) not in own and (id(mod) in orig_names or stateful):  # stateless losses/activations are fine
            runs[-1][id(mod)] = (mod, orig_names.get(id(mod)) or f"<{type(mod).__name__} outside the model>")

    handle = register_module_forward_pre_hook(seen)
    before = {n: t.detach().clone() for n, t in _tensors(orig)}
    modes = {id(m): m.training for m in dup.modules()}
    try:
        with fork_rng(dup), torch.no_grad():
            dup.train()
            for _ in range(2):  # twice: a layer the forward constructs anew is met as a new instance each time
                runs.append({})
                out = forward(target, dup, clone_batch(target.raw_inputs))
                if target.loss_fn is not None:
                    target.loss_fn(out, clone_batch(target.targets))
    finally:
        handle.remove()
        for m in dup.modules():
            m.training = modes.get(id(m), m.training)  # a module the forward built itself keeps its own mode
    built = _reachable(dup)  # a layer the forward built and attached to the copy (lazy init) is the copy's own
    # A stranger met in both runs existed before them (a global, a closure); one met once was built by forward.
    strangers = [name for i, (_, name) in runs[0].items() if i in orig_names or (i not in built and i in runs[1])]
    changed = [n for n, t in _tensors(orig) if not torch.equal(t.detach(), before[n])]
    if not strangers and not changed:
        return None
    where = _leaking_attribute(orig, dup)
    names = ", ".join(dict.fromkeys(strangers[:3]))
    seen_text = (
        f"{names} ran during the copy's forward but belong{'s' if len(set(strangers)) == 1 else ''} to "
        + ("the original" if any(not s.startswith("<") for s in strangers) else "no copy")
        if strangers
        else f"the copy's forward changed the original's {changed[0]}"
    )
    return f"{where} ({seen_text})" if where else f"{seen_text}: a global or a closure outside the copy reaches it"


def check(target: Target, make: Callable[[], nn.Module]) -> str | None:
    """None when `make()` gives a model sharing nothing with the target's; else which attribute leaks."""
    try:
        dup = make()
    except (RuntimeError, TypeError, ValueError, AttributeError, copy.Error, DebugAgentError) as exc:
        return f"the model cannot be copied ({type(exc).__name__}: {str(exc)[:200]})"
    if dup is target.model:
        return "the copy is the original object itself"
    shared = _shared_storage(target.model, dup)
    if shared:
        return shared
    try:
        return _runs_original(target, target.model, dup)
    except (RuntimeError, TypeError, ValueError, AttributeError, IndexError, KeyError) as exc:
        return f"the copy could not be run to check it ({type(exc).__name__}: {str(exc)[:200]})"


def fresh_from(target: Target, factory: Callable[[], nn.Module]) -> nn.Module:
    """A new model from the user's factory with the original's values and train/eval modes."""
    with torch.random.fork_rng(devices=[]):  # the user's function may seed: keep the probe's RNG stream
        model = factory()
    model.load_state_dict(target.model.state_dict())
    for (_, a), (_, b) in zip(target.model.named_modules(), model.named_modules(), strict=False):
        b.training = a.training
    return model


def prepare(target: Target, factory: Callable[[], nn.Module] | None = None) -> None:
    """Decide once how probes copy the target's model: a deep copy, a fresh model, or not at all (why)."""
    if target._prepared:
        return
    target._prepared = True
    _rebind_outside_state(target)
    issue = check(target, lambda: deepcopy_module(target.model))
    if issue is None:
        return
    if factory is not None:

        def fresh() -> nn.Module:
            return fresh_from(target, factory)

        again = check(target, fresh)
        if again is None:
            target._copier = fresh
            return
        issue += f"; a model built by calling the target function again is not isolated either: {again}"
    target._isolation_issue = f"the probes' copy of the model is not isolated: {issue}"


def _rebind_outside_state(target: Target) -> None:
    """Give the target's functions probe-owned copies of the trainable modules they reach outside the model."""
    from ._loss_state import CALLABLES, LossState

    state = LossState.find(target)
    if state is None:
        return
    target._loss_state = state
    for field in CALLABLES:
        setattr(target, field, state.bind(getattr(target, field)))
