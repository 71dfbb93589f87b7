"""Helpers shared by probes: copies of the user's objects, forward/loss/step, user source frames.

Every model call in a probe goes through `forward`, every read of the inputs through `main_input` /
`input_tensors` / `with_tensors`, every copy of the user's model through `copy_model`.
May import: schemas, errors.
"""

from __future__ import annotations

import copy
import inspect
import linecache
import os
import sys
from collections.abc import Callable, Mapping
from importlib.util import find_spec
from typing import Any

import torch
from torch import nn

from debug_agent.errors import CopyNotIsolated, ForeignOptimizer
from debug_agent.schemas import Finding, Target
from debug_agent.schemas.target import flat_tensors

from ._eval_call import call_eval_fn
from ._isolate import deepcopy_module


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


def clone(model: nn.Module, target: Target | None = None) -> nn.Module:
    """A copy of a probe's own model (values and modes included). Pass the target: when a deep copy of
    this model would not be isolated (closures), the copy is a fresh model with these values loaded.
    For the user's model use `copy_model`."""
    if target is None or target._copier is None:
        return deepcopy_module(model)
    fresh = target._copier()
    fresh.load_state_dict(model.state_dict())
    for (_, a), (_, b) in zip(model.named_modules(), fresh.named_modules(), strict=False):
        b.training = a.training
    return fresh


def copy_model(target: Target) -> nn.Module:
    """A model of the probe's own that shares nothing with the user's (verified once per target).

    Raises CopyNotIsolated with the leaking attribute when no isolated copy can be made: the probe
    then becomes an `error` result, never evidence.
    """
    from ._isolate import prepare

    prepare(target)
    if target._isolation_issue:
        raise CopyNotIsolated(target._isolation_issue)
    model = target._copier() if target._copier is not None else deepcopy_module(target.model)
    if target._loss_state is not None:
        target._loss_state.reset(model)  # the loss's own modules start from the user's values; its model is ours
    return model


def clone_batch(x: Any) -> Any:
    """Deep copy of a batch structure (tensors cloned, so in-place user code cannot reach the original).

    Containers keep their type (a tuple stays a tuple, a dict subclass its class), so the user's
    functions receive the batch exactly as they gave it.
    """
    if isinstance(x, torch.Tensor):
        return x.detach().clone()
    if isinstance(x, tuple) and not hasattr(x, "_fields"):
        return tuple(clone_batch(v) for v in x)
    if isinstance(x, list):
        return [clone_batch(v) for v in x]
    if type(x) is dict:
        return {k: clone_batch(v) for k, v in x.items()}
    return copy.deepcopy(x)


def forward(target: Target, model: nn.Module, inputs: Any) -> Any:
    """Call the model on inputs the way the target says: the one place probes run a model.

    `call_model(model, inputs)` when given; else a dict (any mapping) as `model(**inputs)`, a tuple or
    list as `model(*inputs)`, a tensor as `model(inputs)`.
    """
    if target.call_model is not None:
        return target.call_model(model, inputs)
    if isinstance(inputs, Mapping):
        return model(**inputs)
    if isinstance(inputs, (tuple, list)):
        return model(*inputs)
    return model(inputs)


def call_flat(target: Target, model: nn.Module, tensors: Any) -> Any:
    """Call the model on the target's inputs with their tensors replaced by `tensors` (flat, in order)."""
    return forward(target, model, with_tensors(target.raw_inputs, list(tensors)))


def storage_key(t: torch.Tensor) -> int | None:
    """Which memory a tensor's values live in (views share it); None where there is no such address."""
    if t.layout != torch.strided or t.device.type == "meta":
        return None
    return t.untyped_storage().data_ptr()


def input_tensors(inputs: Any) -> list[torch.Tensor]:
    """The tensors of an inputs structure in order (the normalized view probes perturb)."""
    return flat_tensors(inputs)


def with_tensors(inputs: Any, tensors: list[torch.Tensor]) -> Any:
    """The inputs structure with its tensors replaced, in `input_tensors` order."""
    it = iter(tensors)

    def rebuild(x: Any) -> Any:
        if isinstance(x, torch.Tensor):
            return next(it)
        if isinstance(x, (tuple, list)) and not hasattr(x, "_fields"):
            return type(x)(rebuild(v) for v in x)
        if isinstance(x, Mapping):
            items = {k: rebuild(v) for k, v in x.items()}
            try:
                return type(x)(items)
            except TypeError:
                return items
        return x

    return rebuild(inputs)


def main_input(target: Target, inputs: Any | None = None) -> torch.Tensor:
    """The first input tensor (of `inputs`, or of the target's batch): the one probes size things by."""
    return input_tensors(target.raw_inputs if inputs is None else inputs)[0]


def main_tensor(out: Any) -> torch.Tensor:
    """The tensor a probe should look at in a model output: the tensor itself, `logits` (key or
    attribute, e.g. a Hugging Face ModelOutput), else the first tensor of a mapping, sequence or object."""
    if isinstance(out, torch.Tensor):
        return out
    logits = out.get("logits") if isinstance(out, Mapping) else getattr(out, "logits", None)
    if isinstance(logits, torch.Tensor):
        return logits
    if isinstance(out, Mapping):
        out = list(out.values())
    elif not isinstance(out, (tuple, list)) and hasattr(out, "__dict__"):
        out = list(vars(out).values())
    if isinstance(out, (tuple, list)):
        for v in out:
            if isinstance(v, torch.Tensor):
                return v
        for v in out:
            if isinstance(v, (tuple, list, Mapping)):
                try:
                    return main_tensor(v)
                except TypeError:
                    continue
    raise TypeError(f"model output {type(out).__name__} holds no tensor")


_MODEL_ARG = ("model", "module", "net", "network", "m", "pl_module")
_PARAMS_ARG = ("params", "parameters", "p", "ps", "param_groups", "named_params")


def run_eval_fn(target: Target, model: nn.Module, batch: Any) -> Any:
    """The target's `eval_fn` on a batch (with the inputs alone where it takes those: see `_eval_call`)."""
    return call_eval_fn(target.eval_fn, model, batch)


def _takes_model(factory: Callable[..., Any]) -> bool | None:
    """Whether an optimizer factory wants the model (by its first parameter's name); None if unclear."""
    try:
        first = next(iter(inspect.signature(factory).parameters.values()), None)
    except (TypeError, ValueError):
        return None
    if first is None:
        return None
    return True if first.name in _MODEL_ARG else False if first.name in _PARAMS_ARG else None


def _unwrap_optimizer(made: Any) -> Any:
    """Lightning-style returns: {'optimizer': opt, ...}, [opt], ([opt], [sched])."""
    if isinstance(made, Mapping) and "optimizer" in made:
        return _unwrap_optimizer(made["optimizer"])
    if isinstance(made, (tuple, list)) and made:
        return _unwrap_optimizer(made[0])
    return made


def build_optimizer(factory: Callable[..., Any], model: nn.Module) -> Any:
    """Call an optimizer factory with `model.parameters()` or with the model itself.

    The factory's first parameter name decides (`model`/`module`/`net`/`m` -> the model, `params`/`p`
    -> the parameters); otherwise the parameters are tried first and the model if that raises
    TypeError or AttributeError (e.g. `lambda model: model.configure_optimizers(...)` given a generator).
    """
    takes = _takes_model(factory)
    if takes is not None:
        return _unwrap_optimizer(factory(model if takes else model.parameters()))
    try:
        return _unwrap_optimizer(factory(model.parameters()))
    except (TypeError, AttributeError):
        return _unwrap_optimizer(factory(model))


def optimizer_like(opt: Any) -> bool:
    """A wrapper that behaves as an optimizer (one-cycle or weight-decay wrappers in real repositories)."""
    groups = getattr(opt, "param_groups", None)
    return (
        callable(getattr(opt, "step", None))
        and callable(getattr(opt, "zero_grad", None))
        and isinstance(groups, list)
        and all(isinstance(g, Mapping) and "params" in g for g in groups)
    )


def make_optimizer(target: Target, model: nn.Module) -> torch.optim.Optimizer:
    """An optimizer over `model` (a probe's copy): the target's factory, else Adam with lr 1e-3."""
    if target.optimizer is None:
        return torch.optim.Adam(model.parameters(), lr=1e-3)
    opt = build_optimizer(target.optimizer, model)
    if not isinstance(opt, torch.optim.Optimizer) and not optimizer_like(opt):
        raise TypeError(
            f"optimizer returned {type(opt).__name__}, not a torch.optim.Optimizer nor an object with "
            "step(), zero_grad() and param_groups (a list of dicts with 'params')"
        )
    own = {id(p) for p in model.parameters()}
    if target._loss_state is not None:
        own |= {id(p) for _, p in target._loss_state.named_parameters()}
    stray = [p for g in opt.param_groups for p in g["params"] if id(p) not in own]
    original = {id(p) for p in target.model.parameters()} if isinstance(target.model, nn.Module) else set()
    # None of the copy's parameters and some of no model we know: an optimizer built on another instance of
    # the model (extra tensors beside the copy's, such as learnable loss weights, are not that).
    if stray and len(stray) == sum(len(g["params"]) for g in opt.param_groups) and any(
        id(p) not in original for p in stray
    ):
        raise ForeignOptimizer(
            f"optimizer: the optimizer it built holds {len(stray)} tensor(s) that belong neither to the model it "
            "was given nor to the target's model: it was built on another instance of the model, so stepping it "
            "never changes the model being trained"
        )
    if stray:
        raise CopyNotIsolated(
            f"optimizer: the optimizer it built holds {len(stray)} tensor(s) that are not parameters of the model it "
            "was given (the factory closes over the original model); make it use its argument"
        )
    return opt


def compute_loss(target: Target, model: nn.Module, batch: Any) -> torch.Tensor:
    return target.loss_fn(forward(target, model, batch[0]), batch[1])


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


def called_from_library() -> bool:
    """Whether the op running now was called by a third-party package rather than by the user's code: the
    first frame outside torch, the standard library and us lies in site-packages. A model composed of
    torch modules alone (no frame of either) is the user's composition, so it is not library code."""
    f = sys._getframe(1)
    while f is not None:
        name = f.f_code.co_filename
        path = os.path.abspath(name)
        if path.startswith(_EXAMPLES):
            return False
        if not (name.startswith("<") or path.startswith(_OURS + _LIBS)):
            return not is_user_file(path)
        f = f.f_back
    return False


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


def with_main_tensor(out: Any, new: torch.Tensor) -> Any:
    """The model output with its main tensor (see `main_tensor`) replaced: same structure, for metric_fn."""
    if isinstance(out, torch.Tensor):
        return new
    if isinstance(out, Mapping) and "logits" in out:
        dup = copy.copy(out)
        dup["logits"] = new
        return dup
    if not isinstance(out, (Mapping, tuple, list)) and isinstance(getattr(out, "logits", None), torch.Tensor):
        dup = copy.copy(out)
        dup.logits = new
        return dup
    old = main_tensor(out)
    if isinstance(out, (tuple, list)) and not hasattr(out, "_fields"):
        return type(out)(new if v is old else v for v in out)
    if isinstance(out, dict):
        dup = copy.copy(out)  # keeps the mapping's own type (a ModelOutput without logits, an OrderedDict)
        for k, v in out.items():
            if v is old:
                dup[k] = new
        return dup
    return new


def pretrained_name(model: Any) -> str | None:
    """The checkpoint a Hugging Face model was loaded from (`from_pretrained` records it), else None."""
    name = getattr(model, "name_or_path", None) or getattr(getattr(model, "config", None), "_name_or_path", None)
    return name if isinstance(name, str) and name else None
