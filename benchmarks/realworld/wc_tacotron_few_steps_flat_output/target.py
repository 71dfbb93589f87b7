"""Tiny text-to-frames model (embedding -> GRU -> linear) trained with L1 on mel-like frames."""
import torch
from torch import nn

VOCAB, N_MEL, T = 20, 8, 24


class TinyTTS(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 32)
        self.rnn = nn.GRU(32, 64, batch_first=True)
        self.proj = nn.Linear(64, N_MEL)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.proj(h)


def _make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    table = torch.randn(VOCAB, N_MEL, generator=torch.Generator().manual_seed(7)) * 2.0
    ids = torch.randint(0, VOCAB, (n, T), generator=g)
    frames = table[ids]
    # frames depend on the current and the previous symbol (a bit of context, like co-articulation)
    frames = 0.7 * frames + 0.3 * torch.roll(frames, 1, dims=1)
    frames = frames - 4.0  # log-mel-ish: mostly negative, "silence" is the mean level
    return ids, frames


def loss_fn(out, y):
    return (out - y).abs().mean()


def make_target():
    torch.manual_seed(0)
    ids, frames = _make_data(256, 0)
    vids, vframes = _make_data(64, 1)
    return {
        "model": TinyTTS(),
        "batch": (ids[:32], frames[:32]),
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "train_data": (ids, frames),
        "val_data": (vids, vframes),
    }
