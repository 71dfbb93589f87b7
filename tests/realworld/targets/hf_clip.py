"""A CLIP model from a tiny config: two inputs, (B, B) logits_per_image compared row with row by design."""

import torch
from _hf import T, V, evaluate, tokens
from torch.nn import functional as F
from transformers import CLIPConfig, CLIPModel


def contrastive(out, labels):
    """CLIP's symmetric loss over the (B, B) image-text similarities: row i's match is column i."""
    return (F.cross_entropy(out.logits_per_image, labels) + F.cross_entropy(out.logits_per_text, labels)) / 2


def make_target():
    torch.manual_seed(0)
    tower = dict(hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2)
    cfg = CLIPConfig(
        text_config=dict(vocab_size=V, max_position_embeddings=T, **tower),
        vision_config=dict(image_size=16, patch_size=4, **tower),
        projection_dim=16,
    )
    ids, pixels = tokens(batch=8), torch.randn(8, 3, 16, 16)
    return {
        "model": CLIPModel(cfg),
        "batch": ({"input_ids": ids, "pixel_values": pixels}, torch.arange(8)),
        "loss_fn": contrastive,
        "eval_fn": evaluate,
    }
