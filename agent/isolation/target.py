"""Load and check a user's target file. Imported only by the worker (and the in-process Python API).

Every way a target can be wrong becomes a TargetError that says what, where (the user's own frame,
not ours) and how to fix it.
"""

from __future__ import annotations

import copy
import difflib
import importlib.util
import inspect
import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import torch
from pydantic import ValidationError

from debug_agent.errors import CopyNotIsolated, TargetError, validation_problems
from debug_agent.isolation._causal import infer_causal
from debug_agent.isolation.boundary import user_where
from debug_agent.probes._common import (
    build_optimizer,
    clone_batch,
    copy_model,
    forward,
    is_user_file,
    main_tensor,
    optimizer_like,
)
from debug_agent.probes._isolate import prepare
from debug_agent.schemas import TARGET_KEYS, SourceSpan, Target, TargetInfo, TargetRef, call_each, call_whole

MODULE_NAME = "debug_agent_user_target"


def _import(path: Path) -> ModuleType:
    if not path.exists():
        raise TargetError(
            f"target file {str(path)!r} does not exist",
            fix="pass --target path/to/file.py[:function]; the path is relative to the current directory",
        )
    if path.is_dir() or path.suffix != ".py":
        raise TargetError(f"target {str(path)!r} is not a Python file", fix="point --target at a .py file")
    sys.dont_write_bytecode = True  # never leave __pycache__ in the user's project
    folder = str(path.parent.resolve())
    if folder not in sys.path:
        sys.path.insert(0, folder)  # so the target can import its sibling modules
    spec = importlib.util.spec_from_file_location(MODULE_NAME, path)
    if spec is None or spec.loader is None:
        raise TargetError(f"cannot import {path}", fix="check that the file is a readable Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[MODULE_NAME] = module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        raise TargetError(
            f"syntax error in the target: {exc.msg}",
            where=user_where(exc),
            fix="fix the syntax error; `python -m py_compile FILE` shows the same message",
        ) from exc
    except ModuleNotFoundError as exc:
        raise TargetError(
            f"the target imports {exc.name!r}, which is not installed in this environment",
            where=user_where(exc),
            fix=f"install it (pip install {exc.name}) or run debug-agent from the environment your project uses",
        ) from exc
    except Exception as exc:  # isolation boundary: any error in user code becomes a clear message
        raise TargetError(
            f"importing the target raised {type(exc).__name__}: {exc}",
            where=user_where(exc),
            fix="the error is in your code at the place shown; the file must import cleanly",
        ) from exc
    return module


def _call_factory(module: ModuleType, ref: TargetRef) -> Any:
    func = getattr(module, ref.func, None)
    if func is None or not callable(func):
        names = [n for n, v in vars(module).items() if inspect.isfunction(v) and v.__module__ == MODULE_NAME]
        close = difflib.get_close_matches(ref.func, names, n=1)
        raise TargetError(
            f"the target file has no function {ref.func!r}",
            where=ref.path,
            fix=(
                f"did you mean {close[0]!r}? use --target {ref.path}:{close[0]}"
                if close
                else f"define `def {ref.func}():` returning a dict with model and batch, "
                "or name another function with FILE.py:FUNC"
            )
            + (f" (functions in the file: {', '.join(names)})" if names and not close else ""),
        )
    try:
        return func()
    except Exception as exc:  # isolation boundary
        raise TargetError(
            f"{ref.func}() raised {type(exc).__name__}: {exc}",
            where=user_where(exc),
            fix=f"{ref.func}() must build the model and batch without raising",
        ) from exc


def _validate(raw: Any, ref: TargetRef) -> Target:
    if isinstance(raw, Target):
        return raw
    if not isinstance(raw, dict):
        raise TargetError(
            f"{ref.func}() returned {type(raw).__name__}, not a dict",
            where=ref.path,
            fix="return {'model': ..., 'batch': (inputs, targets), 'loss_fn': ...}",
        )
    unknown = [k for k in raw if k not in TARGET_KEYS]
    if unknown:
        hints = [
            f"{k!r} (did you mean {m[0]!r}?)" if (m := difflib.get_close_matches(str(k), TARGET_KEYS, n=1)) else repr(k)
            for k in unknown
        ]
        raise TargetError(
            f"{ref.func}() returned unknown keys: {', '.join(hints)}",
            where=ref.path,
            fix=f"allowed keys: {', '.join(TARGET_KEYS)}",
        )
    missing = [k for k in ("model", "batch") if k not in raw]
    if missing:
        raise TargetError(
            f"{ref.func}() returned no {' and no '.join(repr(m) for m in missing)}",
            where=ref.path,
            fix="'model' (an nn.Module) and 'batch' ((inputs, targets)) are required",
        )
    try:
        return Target.model_validate(raw)
    except ValidationError as exc:
        problems = validation_problems(exc)
        raise TargetError(
            f"the target does not fit the protocol: {problems}",
            where=ref.path,
            fix="see the README section 'Target protocol'",
        ) from exc


def _check_runs(t: Target) -> tuple[Any, dict[str, Any]]:
    """Run forward and the loss once (on copies) so broken code fails now with a clear message."""
    extra: dict[str, Any] = {}
    model = copy.deepcopy(t.model)
    inputs, targets = clone_batch(t.batch)
    try:
        with torch.no_grad():
            out = forward(t, model, inputs)
    except Exception as exc:  # isolation boundary
        raise TargetError(
            f"{'call_model' if t.call_model not in (None, call_whole, call_each) else 'model forward'} raised "
            f"{type(exc).__name__}: {exc}",
            where=user_where(exc),
            fix=f"the model must run on the batch's inputs as {_call_form(t)}; for another calling convention "
            "give call_model=lambda model, inputs: ...",
        ) from exc
    if t.loss_fn is not None:
        try:
            with torch.no_grad():
                loss = t.loss_fn(out, targets)
        except Exception as exc:  # isolation boundary
            raise TargetError(
                f"loss_fn raised {type(exc).__name__}: {exc}",
                where=user_where(exc),
                fix="loss_fn(output, targets) must accept the model output and the batch targets",
            ) from exc
        if not isinstance(loss, torch.Tensor) or loss.numel() != 1:
            got = f"a tensor shaped {tuple(loss.shape)}" if isinstance(loss, torch.Tensor) else type(loss).__name__
            raise TargetError(
                f"loss_fn returned {got}, not a scalar tensor",
                where=user_where_of(t.loss_fn),
                fix="reduce it to one number (e.g. .mean()) and keep it a tensor (no .item())",
            )
        value = float(loss.detach().reshape(()))
        extra["initial_loss"] = value if torch.isfinite(loss).item() else str(value)
        if not torch.isfinite(loss).item():
            extra["initial_loss_nonfinite"] = True  # a finding for the probes, not an input error
    return out, extra


def _call_form(t: Target) -> str:
    if isinstance(t.raw_inputs, torch.Tensor) or t.call_model is call_whole:
        return "model(inputs)"
    if t.call_model is call_each:
        return "tuple(model(**view) for view in inputs)"
    return "model(**inputs)" if isinstance(t.raw_inputs, Mapping) else "model(*inputs)"


def _check_optimizer(t: Target) -> None:
    """Build the optimizer once on a copy so a wrong factory fails now, naming the key."""
    if t.optimizer is None:
        return
    fix = (
        "optimizer must be a function of the parameters (lambda params: torch.optim.AdamW(params, lr=3e-4)) "
        "or of the model (lambda model: model.configure_optimizers(...)) returning a torch.optim.Optimizer"
    )
    try:
        opt = build_optimizer(t.optimizer, copy.deepcopy(t.model))
    except Exception as exc:  # isolation boundary: the user's factory raised
        raise TargetError(f"optimizer raised {type(exc).__name__}: {exc}", where=user_where(exc), fix=fix) from exc
    if not isinstance(opt, torch.optim.Optimizer) and not optimizer_like(opt):
        raise TargetError(
            f"optimizer returned {type(opt).__name__}, not a torch.optim.Optimizer",
            where=user_where_of(t.optimizer),
            fix=fix,
        )


def user_where_of(fn: Any) -> str | None:
    try:
        return f"{inspect.getsourcefile(fn)}:{inspect.getsourcelines(fn)[1]}"
    except (TypeError, OSError):
        return None


def _spans(t: Target, ref: TargetRef | None) -> list[SourceSpan]:
    """The user's files: the target file, plus files defining the model's classes and the callables."""
    spans = [SourceSpan(role="target", file=str(Path(ref.path).resolve()), first_line=1, text="")] if ref else []
    seen = {s.file for s in spans}
    objs: list[tuple[str, Any]] = [(f"module:{type(m).__name__}", type(m)) for m in t.model.modules()]
    objs += [(k, getattr(t, k)) for k in ("loss_fn", "train_step", "eval_fn", "metric_fn", "optimizer")]
    for role, obj in objs:
        if obj is None:
            continue
        target = obj if inspect.isclass(obj) or inspect.isfunction(obj) else type(obj)
        try:
            path = inspect.getsourcefile(target)
        except TypeError:
            continue
        if path and is_user_file(path) and os.path.abspath(path) not in seen:
            seen.add(os.path.abspath(path))
            spans.append(SourceSpan(role=role, file=os.path.abspath(path), first_line=1, text=""))
    return spans


def unit_seconds(t: Target) -> float | None:
    """Wall time of one forward+backward on a copy: the unit in which probe costs are reported."""
    if t.loss_fn is None:
        return None
    try:
        model = copy_model(t)
    except CopyNotIsolated:
        return None  # probes that need a copy will say why; nothing to time
    inputs, targets = clone_batch(t.batch)
    best = float("inf")
    cuda = any(p.is_cuda for p in model.parameters())
    for _ in range(2):  # the first pass pays for allocation; keep the faster one
        start = time.perf_counter()
        t.loss_fn(forward(t, model, inputs), targets).backward()
        if cuda:
            torch.cuda.synchronize()  # kernels run asynchronously; time them to the end
        best = min(best, time.perf_counter() - start)
    return best


def step_flops(t: Target) -> int | None:
    """Approximate floating-point operations of one forward+backward, counted (not timed): the planner's
    deterministic measure of what one unit of probe cost is worth. Each module with its own
    parameters costs 2 x its parameters x the positions it is applied at (output elements per
    channel), forward; backward is counted as twice that. None when nothing could be counted."""
    try:
        model = copy_model(t)
    except CopyNotIsolated:
        return None
    total = [0]

    def hook(mod: torch.nn.Module, args: Any, out: Any) -> None:
        y = out[0] if isinstance(out, (tuple, list)) and out else out
        n = sum(p.numel() for p in mod.parameters(recurse=False))
        if isinstance(y, torch.Tensor) and y.dim() >= 1 and n:
            ch = 1 if isinstance(mod, torch.nn.modules.conv._ConvNd) and y.dim() > 1 else -1
            total[0] += 2 * n * (y.numel() // max(y.shape[ch], 1))

    handles = [m.register_forward_hook(hook) for m in model.modules()]
    try:
        with torch.no_grad():
            forward(t, model, clone_batch(t.raw_inputs))
    except (RuntimeError, TypeError, ValueError):  # _check_runs reports real breakage with its own message
        return None
    finally:
        for h in handles:
            h.remove()
    return 3 * total[0] or None


def load(ref: TargetRef, device: str = "cpu") -> tuple[Target, TargetInfo]:
    module = _import(Path(ref.path))
    target = to_device(_validate(_call_factory(module, ref), ref), device)

    def factory() -> torch.nn.Module:  # a fresh model, for when a deep copy would not be isolated
        return to_device(_validate(_call_factory(module, ref), ref), device).model

    return target, describe(target, ref, factory)


def _move(x: Any, device: torch.device) -> Any:
    if isinstance(x, torch.Tensor):
        return x.to(device)
    if isinstance(x, (tuple, list)) and not hasattr(x, "_fields"):
        return type(x)(_move(v, device) for v in x)
    if isinstance(x, Mapping):
        moved = {k: _move(v, device) for k, v in x.items()}
        try:
            return type(x)(moved)  # keep the user's mapping class (e.g. a tokenizer's BatchEncoding)
        except TypeError:
            return moved
    return x


def to_device(target: Target, device: str) -> Target:
    """The target with its model and batch on `device` (the worker's own objects: moving is safe)."""
    from debug_agent.errors import UsageError

    try:
        dev = torch.device(device)
    except RuntimeError as exc:
        raise UsageError(f"--device {device!r} is not a torch device", fix="use cpu, cuda or cuda:N") from exc
    if dev.type == "cpu":
        return target
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise UsageError(f"--device {device}: no CUDA device is available here", fix="omit --device to use the CPU")
    target.model.to(dev)
    return target.model_copy(update={"batch": _move(target.batch, dev)})


def _materialise_lazy(target: Target) -> bool:
    """Lazy layers (nn.LazyLinear) get their shapes from a first forward, which PyTorch asks for before the
    optimizer is built: run it once on the batch, RNG untouched. True when there were any."""
    if not any(isinstance(p, torch.nn.parameter.UninitializedParameter) for p in target.model.parameters()):
        return False
    inputs, _ = clone_batch(target.batch)
    try:
        with torch.random.fork_rng(devices=[]), torch.no_grad():
            forward(target, target.model, inputs)
    except Exception as exc:  # isolation boundary
        raise TargetError(
            f"the first forward that gives the lazy layers their shapes raised {type(exc).__name__}: {exc}",
            where=user_where(exc),
            fix=f"the model must run on the batch's inputs as {_call_form(target)}",
        ) from exc
    return True


def describe(target: Target, ref: TargetRef | None = None, factory: Any = None) -> TargetInfo:
    """Run the target once (clear errors if it breaks), decide how probes copy it, and summarise it."""
    lazy = _materialise_lazy(target)
    out, extra = _check_runs(target)
    if lazy:
        extra["lazy_layers"] = "the model's lazy layers were given their shapes by one forward on the batch"
    if reason := infer_causal(target):
        extra["causal_inferred"] = f"causal order is tested because {reason}; set causal: False if it is not a decoder"
    if target.call_model is call_whole:
        extra["call_form"] = "the model's forward takes one argument: the input tuple is passed whole, as model(inputs)"
    if target.unbatched_sizes:
        extra["batch_axis"] = (
            f"the inputs share no batch axis (first axes {', '.join(map(str, target.unbatched_sizes))}): the batch is "
            "read as one structure (a graph), and probes that compare examples stand aside"
        )
    if target.call_model is call_each:
        extra["call_form"] = "each dict of the input tuple is one view, run through the model as model(**view)"
    _check_optimizer(target)
    prepare(target, factory)
    extra["step_flops"] = step_flops(target)
    if target._isolation_issue:
        extra["isolation"] = target._isolation_issue
    elif target._copier is not None:
        extra["isolation"] = (
            "deep copies would share state with the original; probes use fresh models from the target function"
        )
    try:
        out_shape = list(main_tensor(out).shape)
    except TypeError:
        out_shape = None
    return TargetInfo(
        model_class=type(target.model).__name__,
        n_params=sum(p.numel() for p in target.model.parameters()),
        n_trainable=sum(p.numel() for p in target.model.parameters() if p.requires_grad),
        provided=target.provided(),
        input_shapes=[list(x.shape) for x in target.input_tensors],
        input_dtypes=[str(x.dtype).removeprefix("torch.") for x in target.input_tensors],
        target_shape=list(target.targets.shape) if isinstance(target.targets, torch.Tensor) else None,
        output_shape=out_shape,
        batch_size=target.batch_size,
        causal=target.causal,
        sequence_dim=target.sequence_dim,
        spans=_spans(target, ref),
        extra=extra,
    )
