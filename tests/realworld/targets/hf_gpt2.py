"""Hugging Face GPT-2 from a tiny config: dict inputs, a ModelOutput with .logits, a causal LM."""

import torch
from _hf import T, V, evaluate, lm_loss, tokens
from transformers import GPT2Config, GPT2LMHeadModel


def _model():
    torch.manual_seed(0)
    return GPT2LMHeadModel(GPT2Config(vocab_size=V, n_positions=T, n_embd=32, n_layer=2, n_head=2))


def make_target():
    ids = tokens()
    return {
        "model": _model(),
        "batch": ({"input_ids": ids, "attention_mask": torch.ones_like(ids)}, ids),
        "loss_fn": lm_loss,
        "eval_fn": evaluate,
        "causal": True,
    }


def make_labels_shifted_twice():
    """The model shifts labels internally; the user shifts them too, so it learns to predict t+2."""
    ids = tokens()
    labels = torch.cat([ids[:, 1:], ids[:, :1]], 1)  # BUG: pre-shifted labels handed to a model that shifts again
    return {
        "model": _model(),
        "batch": ({"input_ids": ids, "labels": labels}, labels),
        "loss_fn": lambda out, y: out.loss,
        "causal": True,
    }


def _padded(ignore_pad: bool):
    """Right-padded sequences (pad id 0) with labels handed to the model, which shifts them itself."""
    ids = tokens()
    mask = torch.ones_like(ids)
    mask[::2, 11:] = 0
    ids = ids.masked_fill(mask == 0, 0)
    labels = ids.masked_fill(mask == 0, -100) if ignore_pad else ids.clone()  # BUG when not ignore_pad
    return {
        "model": _model(),
        "batch": ({"input_ids": ids, "attention_mask": mask, "labels": labels}, labels),
        "loss_fn": lambda out, y: out.loss,
        "eval_fn": evaluate,
        "causal": True,
    }


def make_padded():
    return _padded(ignore_pad=True)


def make_pad_in_loss():
    return _padded(ignore_pad=False)
