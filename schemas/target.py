"""The target protocol: what a user's `make_target()` returns.

Only validators touch torch, and they import it lazily, so importing the schemas stays light.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

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
    "name",
)


def _is_tensor(x: Any) -> bool:
    import torch

    return isinstance(x, torch.Tensor)


class Target(BaseModel):
    """The user's model and one representative batch, plus optional training pieces.

    `batch` is `(inputs, targets)`; `inputs` is a tensor or a tuple of tensors passed as
    `model(*inputs)`. Everything else is optional; probes that need a missing piece report
    `not_applicable`.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    model: Any = Field(description="torch.nn.Module")
    batch: tuple[Any, Any] = Field(description="(inputs, targets)")
    loss_fn: Callable[..., Any] | None = Field(default=None, description="loss_fn(output, targets) -> scalar")
    optimizer: Callable[..., Any] | None = Field(default=None, description="optimizer(params) -> Optimizer")
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
    causal: bool = False
    sequence_dim: int = 1
    name: str | None = None

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
        if isinstance(v, list):
            v = tuple(v)
        if not isinstance(v, tuple) or len(v) != 2:
            raise ValueError(
                f"batch must be a pair (inputs, targets), got {type(v).__name__}"
                + (f" of length {len(v)}" if isinstance(v, tuple) else "")
            )
        inputs = v[0]
        items = inputs if isinstance(inputs, (tuple, list)) else (inputs,)
        if not items or not all(_is_tensor(t) for t in items):
            raise ValueError("batch inputs must be a tensor or a tuple of tensors")
        sizes = {t.shape[0] for t in items if t.dim() > 0}
        if any(t.dim() == 0 for t in items) or len(sizes) != 1:
            raise ValueError("every input tensor needs the same leading batch dimension")
        return (tuple(items), v[1])

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
    def _sequence_dim_fits(self) -> Target:
        if self.causal:
            first = self.inputs[0]
            if not 0 < self.sequence_dim < first.dim():
                raise ValueError(
                    f"sequence_dim={self.sequence_dim} is not a non-batch axis of inputs shaped {tuple(first.shape)}"
                )
        return self

    @property
    def inputs(self) -> tuple[Any, ...]:
        """Input tensors, always a tuple: call as `model(*inputs)`."""
        return self.batch[0]

    @property
    def targets(self) -> Any:
        return self.batch[1]

    @property
    def batch_size(self) -> int:
        return int(self.inputs[0].shape[0])

    def provided(self) -> list[str]:
        """The optional keys the user supplied (plus the required ones)."""
        out = ["model", "batch"]
        for key in TARGET_KEYS[2:]:
            val = getattr(self, key)
            if val is not None and not (key in ("causal",) and val is False) and key != "sequence_dim":
                out.append(key)
        return out
