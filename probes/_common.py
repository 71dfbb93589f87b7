"""Helpers shared by probes: copies of the user's objects, forward/loss/step, user source frames."""

from __future__ import annotations

import copy
import linecache
import os
import sys
from collections.abc import Callable
from importlib.util import find_spec
from typing import Any

import torch
from torch import nn

from debug_agent.schemas import Finding, Target


def _pkg_dir(name: str) -> str:
    """A package's folder, found without importing it (so probes import nothing of ours but schemas)."""
    spec = find_spec(name)
    locations = list(spec.submodule_search_locations or []) if spec else []
    return os.path.abspath(locations[0]) + os.sep if locations else os.sep + "\0nowhere" + os.sep


# Frames in these folders are not the user's code. Bundled examples count as user code even when
# they are installed inside the debug_agent package.
_OURS = tuple(_pkg_dir(m) for m in ("debug_agent", "debug_agent.schemas", "debug_agent.probes"))
_EXAMPLES = _pkg_dir("debug_agent.examples")
_LIBS = (os.path.dirname(os.path.abspath(torch.__file__)) + os.sep, os.path.dirname(os.__file__) + os.sep)


def is_user_file(path: str, skip_ours: bool = True) -> bool:
    if path.startswith("<"):
        return False
    path = os.path.abspath(path)
    if path.startswith(_EXAMPLES):
        return True
    if path.startswith(_LIBS) or f"{os.sep}site-packages{os.sep}" in path:
        return False
    return not (skip_ours and path.startswith(_OURS))


def clone(model: nn.Module) -> nn.Module:
    """A deep copy: probes never touch the user's model, its buffers or its grads."""
    return copy.deepcopy(model)


def clone_batch(x: Any) -> Any:
    """Deep copy of a batch structure (tensors cloned, so in-place user code cannot reach the original)."""
    if isinstance(x, torch.Tensor):
        return x.detach().clone()
    if isinstance(x, tuple):
        return tuple(clone_batch(v) for v in x)
    if isinstance(x, list):
        return [clone_batch(v) for v in x]
    if isinstance(x, dict):
        return {k: clone_batch(v) for k, v in x.items()}
    return copy.deepcopy(x)


def main_tensor(out: Any) -> torch.Tensor:
    """The tensor a probe should look at when forward returns a structure (first tensor, or 'logits')."""
    if isinstance(out, torch.Tensor):
        return out
    if isinstance(out, dict):
        if isinstance(out.get("logits"), torch.Tensor):
            return out["logits"]
        out = list(out.values())
    if isinstance(out, (tuple, list)):
        for v in out:
            if isinstance(v, torch.Tensor):
                return v
    raise TypeError(f"model output {type(out).__name__} holds no tensor")


def make_optimizer(target: Target, model: nn.Module) -> torch.optim.Optimizer:
    if target.optimizer is not None:
        return target.optimizer(model.parameters())
    return torch.optim.Adam(model.parameters(), lr=1e-3)


def compute_loss(target: Target, model: nn.Module, batch: tuple[Any, Any]) -> torch.Tensor:
    inputs, targets = batch
    out = model(*inputs)
    return target.loss_fn(out, targets)


def as_float(x: Any) -> float:
    if isinstance(x, torch.Tensor):
        return float(x.detach().float().reshape(-1)[0]) if x.numel() else float("nan")
    return float(x)


def train_step(target: Target, model: nn.Module, opt: torch.optim.Optimizer, batch: tuple[Any, Any]) -> float:
    """One step: the user's own `train_step` when given (used as-is), else the textbook step."""
    if target.train_step is not None:
        loss = target.train_step(model, batch, opt, target.loss_fn)
        return as_float(loss) if loss is not None else float("nan")
    opt.zero_grad(set_to_none=True)
    loss = compute_loss(target, model, batch)
    loss.backward()
    opt.step()
    return as_float(loss)


def user_frame(skip_ours: bool = True) -> tuple[str, int, str] | None:
    """(file, line, code) of the innermost frame in the user's code (not torch, not us, not stdlib)."""
    f = sys._getframe(1)
    while f is not None:
        fn = f.f_code.co_filename
        if is_user_file(fn, skip_ours):
            return os.path.abspath(fn), f.f_lineno, linecache.getline(fn, f.f_lineno).strip()
        f = f.f_back
    return None


def display_path(path: str) -> str:
    """A path relative to the working directory when it lies below it, else as given."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def finding_at(text: str, frame: tuple[str, int, str] | None, **data: Any) -> Finding:
    if frame is None:
        return Finding(text=text, data=data)
    return Finding(text=text, where=f"{display_path(frame[0])}:{frame[1]}", code=frame[2], data=data)


def fork_rng(model: nn.Module) -> Any:
    """Fork the CPU generator, and the CUDA one when the model lives on a GPU."""
    p = next(model.parameters(), None)
    cuda = [p.device.index or 0] if p is not None and p.device.type == "cuda" else []
    return torch.random.fork_rng(devices=cuda)


def watch_modules(
    model: nn.Module, record: Callable[[str, nn.Module], object], only: tuple[type, ...] = (nn.Module,)
) -> list[Any]:
    """Call record(name, module) before each forward of every (matching, named) sub-module.

    The hook always returns None: a forward pre-hook that returns a value replaces the module's inputs.
    """

    def hook_for(name: str) -> Callable[..., None]:
        def hook(mod: nn.Module, args: Any) -> None:
            record(name, mod)

        return hook

    return [m.register_forward_pre_hook(hook_for(n)) for n, m in model.named_modules() if isinstance(m, only)]
