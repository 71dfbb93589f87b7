"""A one-block decoder-only transformer language model with a proper causal mask."""

import torch
from torch import nn

VOCAB, T, DIM = 40, 16, 32


class TinyGPT(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.tok = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Embedding(T, DIM)
        self.block = nn.TransformerEncoderLayer(DIM, nhead=4, dim_feedforward=64, dropout=0.1, batch_first=True)
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        t = tokens.shape[1]
        x = self.tok(tokens) + self.pos(torch.arange(t))  # (B, T, C)
        mask = nn.Transformer.generate_square_subsequent_mask(t)
        h = self.block(x, src_mask=mask, is_causal=True)
        return self.head(h)  # (B, T, VOCAB)


def lm_loss(logits: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
    return nn.functional.cross_entropy(logits[:, :-1].reshape(-1, VOCAB), tokens[:, 1:].reshape(-1))


def make_target():
    torch.manual_seed(0)
    tokens = torch.randint(0, VOCAB, (8, T))
    return {
        "model": TinyGPT(),
        "batch": (tokens, tokens),
        "loss_fn": lm_loss,
        "causal": True,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=3e-3),
    }
