"""Modules that run in forward without belonging to the model: layers built anew on every call, and
nn.Module classes with a hand-written `backward` method that autograd never calls.

A layer constructed inside forward (`nn.Conv2d(c, k, 1)(x)`) gets fresh random weights on each call: the
optimizer never holds them and a checkpoint never saves them. A module's own `backward(self, grad)` is
ordinary Python to autograd, which differentiates `forward` instead (a gradient reversal written this
way reverses nothing); a custom gradient needs a torch.autograd.Function.

Used by step_audit and grad_check. May import: torch, the probe helpers.
"""

from __future__ import annotations

import inspect
from collections import Counter
from types import TracebackType
from typing import Any

from torch import nn
from torch.nn.modules import module as nn_module

from ._common import is_user_file


def own_backward(mod: nn.Module) -> type | None:
    """The user's nn.Module class in `mod`'s MRO that defines `backward` (library classes such as a
    LightningModule define a `backward` training hook on purpose)."""
    for cls in type(mod).__mro__:
        if cls is nn.Module or not issubclass(cls, nn.Module) or "backward" not in vars(cls):
            continue
        try:
            path = inspect.getsourcefile(cls)
        except TypeError:
            return None
        return cls if path is not None and is_user_file(path) else None
    return None


class ModuleCallWatch:
    """Watches every module call while active (a global forward pre-hook).

    `known` holds the ids of parameters something trains (the model's, the optimizer's, a loss module's):
    a module outside them with trainable parameters is a stray; strays of one class met as two or more
    distinct instances were built during the calls. Strays are kept referenced so ids stay unique.
    """

    def __init__(self, model: nn.Module, known: set[int] | None = None) -> None:
        self.members = {id(m) for m in model.modules()}
        self.known = {id(p) for p in model.parameters()} | (known or set())
        self.strays: dict[int, nn.Module] = {}
        self.backwards: dict[int, tuple[nn.Module, type]] = {}
        self.called: set[int] = set()
        self._handle: Any = None

    def __enter__(self) -> ModuleCallWatch:
        self._handle = nn_module.register_module_forward_pre_hook(self._pre)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._handle.remove()
        for mod, _ in self.backwards.values():
            vars(mod).pop("backward", None)  # the recording wrapper set on the instance below

    def _pre(self, mod: nn.Module, args: Any) -> None:
        key = id(mod)
        if key not in self.members and key not in self.strays:
            params = [p for p in mod.parameters(recurse=False) if p.requires_grad and id(p) not in self.known]
            if params:
                self.strays[key] = mod
        cls = own_backward(mod) if key not in self.backwards else None
        if cls is not None:
            self.backwards[key] = (mod, cls)
            method = mod.backward

            def recording(*a: Any, **kw: Any) -> Any:
                self.called.add(key)
                return method(*a, **kw)

            mod.backward = recording  # type: ignore[method-assign]

    def built_in_forward(self) -> list[str]:
        """Classes with trainable parameters instantiated anew while forward ran (two instances or more)."""
        counts = Counter(type(m).__name__ for m in self.strays.values())
        return [f"{name} (x{n} new instances)" for name, n in counts.items() if n >= 2]

    def ignored_backwards(self) -> list[str]:
        """Classes whose own `backward` method was never called although their forward ran."""
        names = [cls.__qualname__ for key, (_, cls) in self.backwards.items() if key not in self.called]
        return list(dict.fromkeys(names))

