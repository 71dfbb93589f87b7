"""The target protocol: what a user's `make_target()` returns.

May import: nothing of ours. Only validators touch torch, and they import it lazily, so importing the
schemas stays light. The user's `batch` is kept exactly as given (it reaches `eval_fn`, `train_step`
and `metric_fn` unchanged); probes read a normalized view of it through `input_tensors`,
`input_axes` and `batch_size`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

TARGET_KEYS = (
    "model",
    "batch",
    "loss_fn",
    "optimizer",
    "train_step",
    "eval_fn",
    "metric_fn",
    "train_data",
    "val_data",
    "groups",
    "causal",
    "sequence_dim",
    "call_model",
    "batch_axis",
    "name",
    "observation",
)

_INPUTS_HELP = (
    "inputs must be a tensor, a tuple of tensors (model(*inputs)) or a dict of tensors (model(**inputs)); "
    "for anything else give call_model=lambda model, inputs: ..."
)


def _is_tensor(x: Any) -> bool:
    import torch

    return isinstance(x, torch.Tensor)


def flat_tensors(inputs: Any) -> list[Any]:
    """The tensors of an inputs structure, in order (tuple order, dict insertion order)."""
    if _is_tensor(inputs):
        return [inputs]
    if isinstance(inputs, (tuple, list)):
        return [t for v in inputs for t in flat_tensors(v)]
    if isinstance(inputs, Mapping):
        return [t for v in inputs.values() for t in flat_tensors(v)]
    return []


def _axes_for(inputs: Any, axis: Any) -> list[int]:
    """The batch axis of each tensor in `flat_tensors(inputs)`; `axis` mirrors the inputs' structure."""
    if axis is None:
        return [0] * len(flat_tensors(inputs))
    if isinstance(axis, int) and not isinstance(axis, bool):
        return [axis] * len(flat_tensors(inputs))
    if _is_tensor(inputs):
        raise ValueError(f"batch_axis must be an int for a single input tensor, got {type(axis).__name__}")
    if isinstance(inputs, (tuple, list)):
        if not isinstance(axis, (tuple, list)) or len(axis) != len(inputs):
            raise ValueError(f"batch_axis must be an int or a tuple of {len(inputs)} ints, one per input")
        return [a for v, ax in zip(inputs, axis, strict=True) for a in _axes_for(v, ax)]
    if isinstance(inputs, Mapping):
        if not isinstance(axis, Mapping) or set(axis) - set(inputs):
            raise ValueError(f"batch_axis must be an int or a dict over the input keys {sorted(inputs)}")
        return [a for k, v in inputs.items() for a in _axes_for(v, axis.get(k, 0))]
    return []


class Target(BaseModel):
    """The user's model and one representative batch, plus optional training pieces.

    `batch` is `(inputs, targets)`, kept as given. `inputs` is a tensor (`model(inputs)`), a tuple of
    tensors (`model(*inputs)`, or `model(inputs)` when forward takes one argument), a dict of tensors
    (`model(**inputs)`), or anything `call_model(model, inputs)` understands. Everything else is optional;
    probes that need a missing piece report `not_applicable`.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    model: Any = Field(description="torch.nn.Module")
    batch: Any = Field(description="(inputs, targets), as given")
    loss_fn: Callable[..., Any] | None = Field(default=None, description="loss_fn(output, targets) -> scalar")
    optimizer: Callable[..., Any] | None = Field(
        default=None, description="optimizer(params) or optimizer(model) -> Optimizer"
    )
    train_step: Callable[..., Any] | None = Field(
        default=None, description="train_step(model, batch, optimizer, loss_fn) -> loss"
    )
    eval_fn: Callable[..., Any] | None = Field(default=None, description="eval_fn(model, batch) -> output")
    metric_fn: Callable[..., Any] | None = Field(default=None, description="metric_fn(output, targets) -> number")
    train_data: Any = None
    val_data: Any = None
    groups: tuple[Any, Any] | None = Field(
        default=None, description="(train_groups, val_groups): a group id (patient, user, document) per row"
    )
    causal: bool | None = Field(
        default=None,
        description="positions must not depend on later ones; None: inferred (declared decoders, next-token targets)",
    )
    sequence_dim: int = 1
    call_model: Callable[..., Any] | None = Field(default=None, description="call_model(model, inputs) -> output")
    batch_axis: Any = Field(default=None, description="batch axis per input when not 0")
    name: str | None = None
    observation: Any = Field(default=None, description="TrainObservation of a real run (script mode)")
    # Set by the isolation layer: how probes get a model of their own, or why they cannot.
    _copier: Any = PrivateAttr(default=None)
    _isolation_issue: str | None = PrivateAttr(default=None)
    _prepared: bool = PrivateAttr(default=False)
    _no_batch_axis: tuple[int, ...] = PrivateAttr(default=())  # the inputs' first-axis sizes when none is shared
    _loss_state: Any = PrivateAttr(default=None)  # modules with state the functions reach outside the model

    @field_validator("model")
    @classmethod
    def _model_is_module(cls, v: Any) -> Any:
        import torch

        if not isinstance(v, torch.nn.Module):
            raise ValueError(f"model must be a torch.nn.Module, got {type(v).__name__}")
        return v

    @field_validator("batch", mode="before")
    @classmethod
    def _batch_pair(cls, v: Any) -> Any:
        if not isinstance(v, (tuple, list)) or len(v) != 2:
            raise ValueError(
                f"batch must be a pair (inputs, targets), got {type(v).__name__}"
                + (f" of length {len(v)}" if isinstance(v, (tuple, list)) else "")
            )
        return v  # kept as given: the user's own functions receive exactly this object

    @field_validator("batch_axis")
    @classmethod
    def _axis_kind(cls, v: Any) -> Any:
        ok = v is None or isinstance(v, (int, tuple, list, dict)) and not isinstance(v, bool)
        if not ok:
            raise ValueError(f"batch_axis must be an int, a tuple or a dict of ints, got {type(v).__name__}")
        return v

    @field_validator("groups", mode="before")
    @classmethod
    def _groups_pair(cls, v: Any) -> Any:
        if v is None:
            return v
        if not isinstance(v, (tuple, list)) or len(v) != 2 or any(isinstance(g, (str, bytes)) for g in v):
            raise ValueError("groups must be a pair (train_groups, val_groups) of sequences of group ids")
        try:
            return (list(v[0]), list(v[1]))
        except TypeError as exc:
            raise ValueError("groups must be a pair (train_groups, val_groups) of sequences of group ids") from exc

    @model_validator(mode="after")
    def _inputs_fit(self) -> Target:
        inputs = self.batch[0]
        if self.call_model is None and _takes_the_tuple(self.model, inputs):
            self.call_model = call_whole  # forward(self, batch) unpacks the tuple itself
        elif self.call_model is None and _views_of_one_model(self.model, inputs):
            self.call_model = call_each  # a siamese pair: each dict is one view, run through the same model
        tensors = flat_tensors(inputs)
        plain = _is_tensor(inputs) or isinstance(inputs, (tuple, list, Mapping))
        if self.call_model is None and (not plain or not tensors or len(tensors) != _count_leaves(inputs)):
            raise ValueError(f"batch: {_INPUTS_HELP}, got {_describe(inputs)}")
        if not tensors:
            raise ValueError("batch: the inputs hold no tensor; probes need at least one input tensor")
        axes = _axes_for(inputs, self.batch_axis)
        for t, a in zip(tensors, axes, strict=True):
            if t.dim() == 0 or not -t.dim() <= a < t.dim():
                raise ValueError(
                    f"batch_axis: axis {a} does not exist in an input shaped {tuple(t.shape)}; "
                    "give batch_axis (an int, or one per input) naming each input's batch axis"
                )
        sizes = {int(t.shape[a]) for t, a in zip(tensors, axes, strict=True)}
        if len(sizes) != 1 and self.batch_axis is None and not set.intersection(*(set(t.shape) for t in tensors)):
            # No axis length is shared by every input, so no batch_axis could line them up: one structure
            # (a graph's nodes and edges), not a batch of examples. Probes that compare examples along a
            # batch axis stand aside; the rest run on the whole structure.
            self._no_batch_axis = tuple(sorted(sizes))
        elif len(sizes) != 1:
            raise ValueError(
                f"batch_axis: the inputs disagree on the batch size along their batch axes ({sorted(sizes)}); "
                "give batch_axis per input (e.g. {'input_ids': 0, 'hidden': 1})"
            )
        if self.causal:
            first, axis = tensors[0], axes[0] % tensors[0].dim()
            if not (0 <= self.sequence_dim < first.dim() and self.sequence_dim != axis):
                raise ValueError(
                    f"sequence_dim={self.sequence_dim} is not a non-batch axis of inputs shaped {tuple(first.shape)}"
                )
        return self

    @property
    def raw_inputs(self) -> Any:
        """The inputs exactly as given (a tensor, tuple, dict or the call_model's own structure)."""
        return self.batch[0]

    @property
    def inputs(self) -> tuple[Any, ...]:
        """The input tensors as a flat tuple (normalized view). Run the model through
        `probes._common.forward(target, model, raw_inputs)`, not `model(*inputs)`."""
        return tuple(flat_tensors(self.batch[0]))

    @property
    def targets(self) -> Any:
        return self.batch[1]

    @property
    def input_tensors(self) -> list[Any]:
        """Every input tensor, flattened in order: the normalized view probes read."""
        return flat_tensors(self.batch[0])

    @property
    def input_axes(self) -> list[int]:
        """The batch axis of each tensor in `input_tensors` (non-negative)."""
        return [a % t.dim() for t, a in zip(self.input_tensors, _axes_for(self.batch[0], self.batch_axis), strict=True)]

    @property
    def has_batch_axis(self) -> bool:
        """False for one structure whose inputs share no axis length (a graph's nodes and edges)."""
        return not self._no_batch_axis

    @property
    def unbatched_sizes(self) -> tuple[int, ...]:
        """The inputs' first-axis sizes when they share no batch axis; empty for a batch of examples."""
        return self._no_batch_axis

    @property
    def batch_size(self) -> int:
        return int(self.input_tensors[0].shape[self.input_axes[0]])

    def provided(self) -> list[str]:
        """The optional keys the user supplied (plus the required ones)."""
        out = ["model", "batch"]
        for key in TARGET_KEYS[2:]:
            val = getattr(self, key)
            if val is not None and not (key == "causal" and not val) and key != "sequence_dim":
                out.append(key)
        return out


def call_whole(model: Any, inputs: Any) -> Any:
    """Call a model whose forward takes the whole input tuple as its one argument: model(inputs)."""
    return model(inputs)


def call_each(model: Any, inputs: Any) -> Any:
    """Run each dict of a tuple through the model, as a siamese or multi-view model is: one output per view."""
    return tuple(model(**view) for view in inputs)


def _views_of_one_model(model: Any, inputs: Any) -> bool:
    """A tuple of two or more dicts of tensors whose keys are all named parameters of forward: each dict is
    one view (`model(**a), model(**b)`); `model(*inputs)` would pass whole dicts as the ids."""
    if not isinstance(inputs, (tuple, list)) or len(inputs) < 2 or not all(isinstance(v, Mapping) for v in inputs):
        return False
    params = _forward_params(model)
    if params is None or len(flat_tensors(inputs)) != _count_leaves(inputs):
        return False
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return True
    return all(set(view) <= {p.name for p in params} for view in inputs)


def _forward_params(model: Any) -> list[Any] | None:
    """The parameters of `model.forward` (inspect.Parameter), or None when it has no readable signature."""
    import inspect

    if not callable(getattr(model, "forward", None)):
        return None
    try:
        return list(inspect.signature(model.forward).parameters.values())
    except (TypeError, ValueError):
        return None


def _takes_the_tuple(model: Any, inputs: Any) -> bool:
    """A tuple of two or more inputs, and a forward with exactly one positional parameter (and no *args):
    `model(*inputs)` could only raise, and `forward(self, batch)` means the user passes the batch whole."""
    if not isinstance(inputs, (tuple, list)) or len(inputs) < 2:
        return False
    if not flat_tensors(inputs) or len(flat_tensors(inputs)) != _count_leaves(inputs):
        return False  # strings or other objects: the protocol's own message says what to give
    params = _forward_params(model)
    if params is None:
        return False
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
        return False
    return len([p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]) == 1


def _count_leaves(inputs: Any) -> int:
    if isinstance(inputs, (tuple, list)):
        return sum(_count_leaves(v) for v in inputs)
    if isinstance(inputs, Mapping):
        return sum(_count_leaves(v) for v in inputs.values())
    return 1


def _describe(x: Any) -> str:
    if isinstance(x, (tuple, list, Mapping)):
        vals = x.values() if isinstance(x, Mapping) else x
        return f"a {type(x).__name__} holding {', '.join(sorted({type(v).__name__ for v in vals})) or 'nothing'}"
    return f"a {type(x).__name__}"
