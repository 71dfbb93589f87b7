"""A Llama-style decoder (RMSNorm, rotary embeddings, SiLU gate) from a tiny config."""

import torch
from _hf import TINY, V, lm_loss, tokens
from transformers import LlamaConfig, LlamaForCausalLM


def make_target():
    torch.manual_seed(0)
    model = LlamaForCausalLM(LlamaConfig(vocab_size=V, max_position_embeddings=32, num_key_value_heads=1, **TINY))
    ids = tokens()
    return {"model": model, "batch": ({"input_ids": ids}, ids), "loss_fn": lm_loss, "causal": True}
