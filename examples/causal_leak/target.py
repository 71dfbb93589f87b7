"""A one-block decoder-only transformer language model; the causal mask was dropped."""

import torch
from torch import nn

VOCAB, T, DIM = 40, 16, 32


class TinyGPT(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.tok = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Embedding(T, DIM)
        self.block = nn.TransformerEncoderLayer(DIM, nhead=4, dim_feedforward=64, dropout=0.0, batch_first=True)
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        t = tokens.shape[1]
        x = self.tok(tokens) + self.pos(torch.arange(t))  # (B, T, C)
        h = self.block(x)
        return self.head(h)  # (B, T, VOCAB)


def lm_loss(logits: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
    return nn.functional.cross_entropy(logits[:, :-1].reshape(-1, VOCAB), tokens[:, 1:].reshape(-1))


def make_target():
    torch.manual_seed(0)
    tokens = torch.randint(0, VOCAB, (8, T))
    return {"model": TinyGPT(), "batch": (tokens, tokens), "loss_fn": lm_loss, "causal": True}
