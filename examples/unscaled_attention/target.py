"""A self-attention sequence classifier whose scores go into the softmax without the 1/sqrt(d) scale."""

import torch
from torch import nn

VOCAB, T, DIM, CLASSES = 32, 12, 96, 4


class AttentionClassifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.tok = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Parameter(torch.randn(T, DIM))
        self.qkv = nn.Linear(DIM, 3 * DIM)
        self.head = nn.Linear(DIM, CLASSES)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.tok(tokens) + self.pos  # (B, T, C)
        q, k, v = self.qkv(x).chunk(3, dim=-1)  # each (B, T, C)
        att = (q @ k.transpose(1, 2)).softmax(-1)  # (B, T, T), the scale 1/sqrt(C) is missing
        return self.head((att @ v).mean(1))  # (B, CLASSES)


def make_target():
    torch.manual_seed(0)
    tokens = torch.randint(0, VOCAB, (256, T))
    labels = (tokens[:, 0] >= VOCAB // 2).long() + 2 * (tokens[:, -1] >= VOCAB // 2).long()  # read at both ends
    return {
        "model": AttentionClassifier(),
        "batch": (tokens[:32], labels[:32]),
        "loss_fn": nn.functional.cross_entropy,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "train_data": (tokens, labels),
    }
