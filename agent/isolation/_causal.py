"""Whether a target is a next-token (causal) model when the user did not say.

A causal test on a bidirectional model would report a leak that is by design, so the inference is
conservative: the model must declare itself a decoder (a Hugging Face-style `config.is_decoder`, or a
class named as a causal language model), or the targets must be the inputs shifted by one position
along `sequence_dim`. An explicit `causal` in the target always wins.

May import: torch, schemas.
"""

from __future__ import annotations

import torch

from debug_agent.schemas import Target

_DECODER_CLASS_SUFFIXES = ("ForCausalLM", "LMHeadModel")


def infer_causal(target: Target) -> str | None:
    """Set `target.causal` when it was left unset; return the reason when it was inferred True."""
    if target.causal is not None:
        return None
    reason = _declared_decoder(target.model) or _next_token_targets(target)
    target.causal = reason is not None and _sequence_axis_ok(target)
    return reason if target.causal else None


def _declared_decoder(model: torch.nn.Module) -> str | None:
    config = getattr(model, "config", None)
    if getattr(config, "is_encoder_decoder", False):
        return None  # its inputs mix an encoder side that is bidirectional by design
    if getattr(config, "is_decoder", False) is True:
        return "the model's config says is_decoder=True"
    name = type(model).__name__
    if name.endswith(_DECODER_CLASS_SUFFIXES):
        return f"the model class {name} is a causal language model"
    return None


def _next_token_targets(target: Target) -> str | None:
    """Integer targets equal to the first integer input moved one position left: next-token labels."""
    y = target.targets
    tokens = [x for x in target.input_tensors if not x.is_floating_point() and x.dtype != torch.bool]
    if not isinstance(y, torch.Tensor) or y.is_floating_point() or not tokens:
        return None
    x, dim = tokens[0], target.sequence_dim
    if x.shape != y.shape or not 0 <= dim < x.dim() or x.shape[dim] < 3:
        return None
    if torch.equal(y.narrow(dim, 0, x.shape[dim] - 1), x.narrow(dim, 1, x.shape[dim] - 1)):
        return "the targets are the inputs shifted by one position (next-token labels)"
    return None


def _sequence_axis_ok(target: Target) -> bool:
    first, axis = target.input_tensors[0], target.input_axes[0]
    return 0 <= target.sequence_dim < first.dim() and target.sequence_dim != axis
