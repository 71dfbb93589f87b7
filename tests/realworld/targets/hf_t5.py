"""A T5 encoder-decoder from a tiny config: keyword inputs including decoder ids, loss from .loss."""

import torch
from _hf import V, tokens
from transformers import T5Config, T5ForConditionalGeneration


def make_target():
    torch.manual_seed(0)
    cfg = T5Config(
        vocab_size=V,
        d_model=32,
        d_kv=16,
        d_ff=64,
        num_layers=2,
        num_decoder_layers=2,
        num_heads=2,
        decoder_start_token_id=0,
    )
    src, tgt = tokens(seed=1), tokens(seed=2, length=8)
    return {
        "model": T5ForConditionalGeneration(cfg),
        "batch": ({"input_ids": src, "labels": tgt}, tgt),
        "loss_fn": lambda out, y: out.loss,
    }
