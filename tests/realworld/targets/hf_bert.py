"""Hugging Face BERT classifier from a tiny config: padded dict inputs with an attention mask."""

import torch
from _hf import TINY, V, cls_accuracy, cls_loss, evaluate, evaluate_no_eval, tokens
from transformers import BertConfig, BertForSequenceClassification


def _target(eval_fn=evaluate, invert_mask=False):
    torch.manual_seed(0)
    model = BertForSequenceClassification(BertConfig(vocab_size=V, max_position_embeddings=32, num_labels=3, **TINY))
    ids = tokens(batch=8)
    mask = torch.ones_like(ids)
    mask[::2, 12:] = 0  # every other row padded
    ids = ids.masked_fill(mask == 0, 0)
    labels = torch.arange(8) % 3
    if invert_mask:
        mask = 1 - mask  # BUG: padding-mask polarity flipped (1 = padding), as key_padding_mask would take it
    return {
        "model": model,
        "batch": ({"input_ids": ids, "attention_mask": mask}, labels),
        "loss_fn": cls_loss,
        "metric_fn": cls_accuracy,
        "eval_fn": eval_fn,
    }


def make_target():
    return _target()


def make_eval_no_eval_mode():
    return _target(eval_fn=evaluate_no_eval)


def make_mask_inverted():
    return _target(invert_mask=True)
