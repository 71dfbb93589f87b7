"""A small bidirectional Transformer encoder classifying from the first token: the same utterance alone vs
right-padded inside a batch, with and without a key padding mask."""

import torch
import torch.nn as nn

PAD = 0


class Encoder(nn.Module):
    def __init__(self, vocab=50, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=PAD)
        self.pos = nn.Parameter(torch.randn(1, 64, dim) * 0.1)
        layer = nn.TransformerEncoderLayer(dim, 4, 64, dropout=0.0, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.head = nn.Linear(dim, 7)

    def forward(self, ids, mask=None):
        h = self.emb(ids) + self.pos[:, : ids.shape[1]]
        return self.head(self.enc(h, src_key_padding_mask=mask)[:, 0])


def _check() -> str:
    torch.manual_seed(0)
    model = Encoder().eval()
    g = torch.Generator().manual_seed(1)
    lengths = [6, 9, 7, 5, 8, 6, 30, 7]
    ids = torch.full((8, 30), PAD)
    for i, n in enumerate(lengths):
        ids[i, :n] = torch.randint(1, 50, (n,), generator=g)
    with torch.no_grad():
        alone = torch.cat([model(ids[i : i + 1, : lengths[i]]) for i in range(8)])
        batched_nomask = model(ids)
        batched_mask = model(ids, mask=ids == PAD)
    drift = (alone - batched_nomask).abs().max().item()
    masked = (alone - batched_mask).abs().max().item()
    flips = (alone.argmax(1) != batched_nomask.argmax(1)).sum().item()
    assert drift > 0.1 and masked < 1e-4, (drift, masked)
    return f"logits move by up to {drift:.2f} ({flips}/8 labels change) when padded in a batch without a mask; {masked:.1e} with it"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
