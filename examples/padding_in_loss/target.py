"""A small causal language model over right-padded sequences; the labels are the input ids with the
padding left in (not -100), so the loss also trains the model to predict padding."""

import torch
from torch import nn

VOCAB, T, DIM, PAD = 40, 16, 32, 0


class TinyLM(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.tok = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Embedding(T, DIM)
        self.block = nn.TransformerEncoderLayer(DIM, nhead=4, dim_feedforward=64, dropout=0.0, batch_first=True)
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        t = input_ids.shape[1]
        x = self.tok(input_ids) + self.pos(torch.arange(t))
        causal = nn.Transformer.generate_square_subsequent_mask(t)
        h = self.block(x, src_mask=causal, is_causal=True)
        return self.head(h)  # (B, T, VOCAB)


def lm_loss(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    return nn.functional.cross_entropy(logits[:, :-1].reshape(-1, VOCAB), labels[:, 1:].reshape(-1))


def make_target():
    torch.manual_seed(0)
    lengths = torch.tensor([16, 9, 12, 6, 16, 10, 7, 13])
    ids = torch.randint(1, VOCAB, (8, T))
    mask = (torch.arange(T)[None, :] < lengths[:, None]).long()
    ids = ids.masked_fill(mask == 0, PAD)
    labels = ids.clone()  # padded positions keep the pad id instead of -100
    return {
        "model": TinyLM(),
        "batch": ({"input_ids": ids, "attention_mask": mask}, labels),
        "loss_fn": lm_loss,
        "causal": True,
    }
