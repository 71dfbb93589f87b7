"""Small feed-forward mel predictor: phoneme embeddings -> conv stack -> 20 mel bins per frame, L1 loss.

The optimizer factory carries the repository's default learning rate.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_PHONES, N_MELS, T = 30, 20, 24


class MelPredictor(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.emb = nn.Embedding(N_PHONES, d)
        self.conv1 = nn.Conv1d(d, d, 3, padding=1)
        self.conv2 = nn.Conv1d(d, d, 3, padding=1)
        self.out = nn.Linear(d, N_MELS)

    def forward(self, ids):
        h = self.emb(ids).transpose(1, 2)
        h = F.relu(self.conv1(h))
        h = F.relu(self.conv2(h)) + h
        return self.out(h.transpose(1, 2))


_TABLE = torch.Generator().manual_seed(7)
_MEL_OF = torch.randn(N_PHONES, N_MELS, generator=_TABLE)


def _utterances(n, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, N_PHONES, (n, T), generator=g)
    mel = _MEL_OF[ids]
    mel = 0.5 * mel + 0.25 * (mel.roll(1, 1) + mel.roll(-1, 1))
    return ids, mel


def make_target():
    torch.manual_seed(0)
    x, y = _utterances(256, 1)
    return {
        "model": MelPredictor(),
        "batch": (x[:16], y[:16]),
        "loss_fn": lambda out, t: F.l1_loss(out, t),
        "optimizer": lambda params: torch.optim.Adam(params, lr=0.1),
        "train_data": (x, y),
        "val_data": _utterances(64, 2),
    }
