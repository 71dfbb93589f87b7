"""A tiny next-token model whose label masking marks every real token as ignored."""

import torch
from torch import nn

VOCAB, PAD = 30, 0


class TinyLM(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 16)
        self.out = nn.Linear(16, VOCAB)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.out(self.embed(tokens)).transpose(1, 2)  # (B, VOCAB, T) for cross_entropy


def make_labels(tokens: torch.Tensor) -> torch.Tensor:
    labels = tokens.roll(-1, dims=1)
    labels[labels != PAD] = -100  # meant: labels[labels == PAD] = -100
    return labels


def make_target():
    torch.manual_seed(0)
    tokens = torch.randint(1, VOCAB, (8, 12))
    return {"model": TinyLM(), "batch": (tokens, make_labels(tokens)), "loss_fn": nn.CrossEntropyLoss()}
