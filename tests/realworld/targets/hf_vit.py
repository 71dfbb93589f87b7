"""A ViT image classifier from a tiny config: a pixel_values keyword input."""

import torch
from _hf import TINY, cls_accuracy, cls_loss
from transformers import ViTConfig, ViTForImageClassification


def make_target():
    torch.manual_seed(0)
    model = ViTForImageClassification(ViTConfig(image_size=16, patch_size=4, num_channels=3, num_labels=4, **TINY))
    x = torch.randn(8, 3, 16, 16)
    return {
        "model": model,
        "batch": ({"pixel_values": x}, torch.arange(8) % 4),
        "loss_fn": cls_loss,
        "metric_fn": cls_accuracy,
    }
