"""Small helpers of the observer: the loss records, bounded copies of batches, JSON summaries of call arguments, sites.

May import: torch, schemas, probes._common (for what counts as the user's code).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import torch
from torch import nn

from debug_agent.probes._common import display_path, user_frame
from debug_agent.schemas.observation import Site

FUNCTIONAL_LOSSES = (
    "cross_entropy",
    "nll_loss",
    "mse_loss",
    "l1_loss",
    "smooth_l1_loss",
    "huber_loss",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "kl_div",
)


@dataclass
class SeenLoss:
    """A loss call seen on the training path (what a Target's loss_fn is rebuilt from)."""

    name: str
    kind: str
    fn: Any  # the loss module instance or the functional
    kwargs: dict[str, Any]
    target: Any
    out_id: int
    on_model_output: bool
    site: Any


# Modules whose behaviour depends on .training: these are what a wrong mode changes.
MODE_DEPENDENT: tuple[type, ...] = (
    nn.modules.dropout._DropoutNd,
    nn.modules.batchnorm._NormBase,
    nn.AlphaDropout,
    nn.FeatureAlphaDropout,
)


def site() -> Site | None:
    """The innermost frame of the user's code on the current stack, as a Site (None when there is none)."""
    frame = user_frame()
    if frame is None:
        return None
    return Site(file=display_path(frame[0]), line=frame[1], code=frame[2][:200])


def numel(x: Any) -> int:
    """Elements of every tensor in a (nested) structure."""
    if isinstance(x, torch.Tensor):
        return x.numel()
    if isinstance(x, (tuple, list)):
        return sum(numel(v) for v in x)
    if isinstance(x, dict):
        return sum(numel(v) for v in x.values())
    return 0


def copy_small(x: Any, limit: int) -> Any:
    """A detached copy of a (nested) structure of tensors, or None when it holds more than `limit` elements.

    Non-tensor leaves are kept only when they are plain scalars or strings (anything else becomes None).
    """
    if numel(x) > limit:
        return None
    return _copy(x)


def _copy(x: Any) -> Any:
    if isinstance(x, torch.Tensor):
        return x.detach().clone()
    if isinstance(x, tuple) and hasattr(x, "_fields"):  # namedtuple
        return type(x)(*(_copy(v) for v in x))
    if isinstance(x, (tuple, list)):
        return type(x)(_copy(v) for v in x)
    if isinstance(x, dict):
        return {k: _copy(v) for k, v in x.items()}
    if isinstance(x, (int, float, bool, str, type(None))):
        return x
    return None


def describe(x: Any, depth: int = 0) -> Any:
    """A JSON-safe description of an argument structure: shapes and dtypes, keys, types (bounded)."""
    if depth > 4:
        return "..."
    if isinstance(x, torch.Tensor):
        return {"shape": list(x.shape), "dtype": str(x.dtype).removeprefix("torch."), "device": x.device.type}
    if isinstance(x, (tuple, list)):
        items = [describe(v, depth + 1) for v in list(x)[:16]]
        return items + (["..."] if len(x) > 16 else [])
    if isinstance(x, dict):
        return {str(k)[:40]: describe(v, depth + 1) for k, v in list(x.items())[:32]}
    if isinstance(x, (int, float, bool)) or x is None:
        return x
    return type(x).__name__


def json_kwargs(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The plain-valued keyword arguments (what a loss call can be rebuilt from)."""
    return {k: v for k, v in kwargs.items() if isinstance(v, (int, float, bool, str, type(None)))}


def first_tensor(x: Any) -> torch.Tensor | None:
    if isinstance(x, torch.Tensor):
        return x
    if isinstance(x, dict):
        if isinstance(x.get("logits"), torch.Tensor):
            return x["logits"]
        x = list(x.values())
    if isinstance(x, (tuple, list)):
        for v in x:
            t = first_tensor(v)
            if t is not None:
                return t
    return None


def unwrapped(module: nn.Module) -> nn.Module:
    """The user's model inside a data-parallel wrapper (DistributedDataParallel, DataParallel): what a
    snapshot copies (the wrapper is tied to a process group that is gone when the probes run)."""
    parallel = (nn.parallel.DistributedDataParallel, nn.DataParallel)
    return module.module if isinstance(module, parallel) and isinstance(module.module, nn.Module) else module


def call_inputs(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """A model call's inputs as the probes call them: the keyword arguments as a dict (`model(**inputs)`)
    when the call has only those, else the one positional argument or the tuple of them."""
    if kwargs and not args:
        return dict(kwargs)
    return args[0] if len(args) == 1 else args


def output_loss(output: Any) -> torch.Tensor | None:
    """The loss a model computed inside its forward (a Hugging Face `ModelOutput.loss` or a dict's "loss")."""
    loss = output.get("loss") if isinstance(output, dict) else getattr(output, "loss", None)
    return loss if isinstance(loss, torch.Tensor) and loss.numel() == 1 else None


def mode_modules(model: nn.Module) -> list[tuple[str, nn.Module]]:
    """The named mode-dependent sub-modules (dropout, batch norm), the model itself first when it is one."""
    return [(n or type(m).__name__, m) for n, m in model.named_modules() if isinstance(m, MODE_DEPENDENT)]


def param_names(model: nn.Module) -> dict[int, str]:
    return {id(p): n for n, p in model.named_parameters()}


def script_label(path: str) -> str:
    return display_path(os.path.abspath(path))
