"""How the user's `eval_fn` is called: with the batch, as the protocol says, or with the inputs alone.

Evaluation helpers in real code often take the inputs alone (`def evaluate(model, x)`, or `q, d = batch`
unpacked from the inputs). The second parameter's name says so (`x`, `inputs`, `ids`...); otherwise a call
with (inputs, targets) that fails is retried with the inputs, and a helper that takes them is remembered.

May import: torch and the standard library.
"""

from __future__ import annotations

import contextlib
import inspect
import weakref
from typing import Any

from torch import nn

INPUTS_ARG = {
    "x", "xb", "inputs", "input", "images", "imgs", "image", "features", "input_ids", "src", "ids", "tokens",
    "token_ids", "seq", "pixel_values",
}  # fmt: skip
_TAKES_INPUTS: weakref.WeakSet[Any] = weakref.WeakSet()  # eval_fns seen refusing the batch and taking the inputs
RETRYABLE = (TypeError, AttributeError, ValueError, IndexError, RuntimeError)


def call_eval_fn(fn: Any, model: nn.Module, batch: Any) -> Any:
    """`fn(model, batch)`, or `fn(model, inputs)` when its second parameter names inputs or the batch call
    fails and the inputs alone work. When both fail, the first error stands: it is the user's to see."""
    pair = isinstance(batch, (tuple, list)) and len(batch) == 2
    if pair and (_names_inputs(fn) or _remembered(fn)):
        return fn(model, batch[0])
    try:
        return fn(model, batch)
    except RETRYABLE as first:
        if not pair:
            raise
        try:
            out = fn(model, batch[0])
        except Exception:  # the retry's own failure says nothing about the user's code
            raise first from None
        with contextlib.suppress(TypeError):  # not weak-referenceable: retried each time
            _TAKES_INPUTS.add(fn)
        return out


def _names_inputs(fn: Any) -> bool:
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return False
    return len(params) >= 2 and params[1].name in INPUTS_ARG


def _remembered(fn: Any) -> bool:
    try:
        return fn in _TAKES_INPUTS
    except TypeError:
        return False
