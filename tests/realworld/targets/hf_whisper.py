"""A Whisper speech-to-text model from a tiny config: float features in, labels handed to the model."""

import torch
from _hf import V, evaluate, tokens
from transformers import WhisperConfig, WhisperForConditionalGeneration


def make_target():
    torch.manual_seed(0)
    cfg = WhisperConfig(
        vocab_size=V, num_mel_bins=8, d_model=32, encoder_layers=2, decoder_layers=2, encoder_attention_heads=2,
        decoder_attention_heads=2, encoder_ffn_dim=64, decoder_ffn_dim=64, max_source_positions=16,
        max_target_positions=32, pad_token_id=1, bos_token_id=0, eos_token_id=2, decoder_start_token_id=3,
    )  # fmt: skip
    features, labels = torch.randn(4, 8, 32), tokens(seed=5, length=8)
    return {
        "model": WhisperForConditionalGeneration(cfg),
        "batch": ({"input_features": features, "labels": labels}, labels),
        "loss_fn": lambda out, y: out.loss,
        "eval_fn": evaluate,
    }
