"""A token tagger over padded sentences; the collate function now builds the mask with 1 = padding
while the model still reads attention_mask as 1 = real token, so real tokens attend to the padding."""

import torch
from torch import nn

VOCAB, T, DIM, PAD = 40, 12, 32, 0


class Tagger(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.tok = nn.Embedding(VOCAB, DIM, padding_idx=PAD)
        self.pos = nn.Embedding(T, DIM)
        self.block = nn.TransformerEncoderLayer(DIM, nhead=4, dim_feedforward=64, dropout=0.0, batch_first=True)
        self.head = nn.Linear(DIM, 5)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        x = self.tok(input_ids) + self.pos(torch.arange(input_ids.shape[1]))
        h = self.block(x, src_key_padding_mask=attention_mask == 0)  # attention_mask: 1 = real token
        return self.head(h)  # (B, T, 5) tag logits


def collate(lengths: list[int]) -> dict[str, torch.Tensor]:
    ids = torch.randint(1, VOCAB, (len(lengths), T))
    pad = torch.arange(T)[None, :] >= torch.tensor(lengths)[:, None]
    ids = ids.masked_fill(pad, PAD)
    return {"input_ids": ids, "attention_mask": pad.long()}


def tag_loss(logits: torch.Tensor, tags: torch.Tensor) -> torch.Tensor:
    return nn.functional.cross_entropy(logits.reshape(-1, 5), tags.reshape(-1), ignore_index=-100)


def make_target():
    torch.manual_seed(0)
    inputs = collate([12, 7, 10, 5, 12, 8, 9, 6])
    tags = torch.randint(0, 5, (8, T)).masked_fill(inputs["input_ids"] == PAD, -100)
    return {"model": Tagger(), "batch": (inputs, tags), "loss_fn": tag_loss}
