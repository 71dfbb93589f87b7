"""A Mamba (state-space) language model from a tiny config: softplus step sizes initialised in its tail."""

import torch
from _hf import V, evaluate, lm_loss, tokens
from transformers import MambaConfig, MambaForCausalLM


def make_target():
    torch.manual_seed(0)
    ids = tokens()
    return {
        "model": MambaForCausalLM(MambaConfig(vocab_size=V, hidden_size=32, num_hidden_layers=2, state_size=8)),
        "batch": ({"input_ids": ids}, ids),
        "loss_fn": lm_loss,
        "eval_fn": evaluate,
        "causal": True,
    }
