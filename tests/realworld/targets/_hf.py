"""Shared pieces for the Hugging Face targets: tiny configs, random init, no downloads."""

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

import torch  # noqa: E402
from torch.nn import functional as F  # noqa: E402

V, T, B = 64, 16, 4
TINY = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64)


def tokens(seed: int = 0, batch: int = B, length: int = T) -> torch.Tensor:
    return torch.randint(3, V, (batch, length), generator=torch.Generator().manual_seed(seed))


def lm_loss(out, labels):
    """Next-token loss computed by the user from the logits (labels are the input ids)."""
    logits = out.logits[:, :-1]
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels[:, 1:].reshape(-1))


def token_accuracy(out, labels):
    return (out.logits[:, :-1].argmax(-1) == labels[:, 1:]).float().mean()


def cls_loss(out, labels):
    return F.cross_entropy(out.logits, labels)


def cls_accuracy(out, labels):
    return (out.logits.argmax(-1) == labels).float().mean()


def evaluate(model, batch):
    inputs, _ = batch
    model.eval()
    with torch.no_grad():
        return model(**inputs)


def evaluate_no_eval(model, batch):
    inputs, _ = batch
    with torch.no_grad():
        return model(**inputs)
