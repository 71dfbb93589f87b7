"""Per-image features -> transformer encoder over the image sequence -> masked mean pool -> risk logit.

The lengths are used for pooling only; the encoder is called without a key padding mask.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


class SequenceRisk(nn.Module):
    def __init__(self, feat=16, d=32):
        super().__init__()
        self.proj = nn.Linear(feat, d)
        self.encoder = nn.TransformerEncoderLayer(d, nhead=4, dim_feedforward=64, dropout=0.0, batch_first=True)
        self.head = nn.Linear(d, 1)

    def forward(self, feats, lens):
        h = self.encoder(self.proj(feats))
        valid = (torch.arange(feats.shape[1])[None, :] < lens[:, None]).float()
        pooled = (h * valid[..., None]).sum(1) / valid.sum(1, keepdim=True)
        return self.head(pooled).squeeze(1)


def patients(n, seed, max_len=4):
    g = torch.Generator().manual_seed(seed)
    lens = torch.randint(2, max_len + 1, (n,), generator=g)
    feats = torch.randn(n, max_len, 16, generator=g)
    valid = torch.arange(max_len)[None, :] < lens[:, None]
    feats = torch.where(valid[..., None], feats, 3.0 * torch.randn(n, max_len, 16, generator=g))  # filler images
    y = ((feats[..., 0] * valid).sum(1) / lens > 0).float()
    return (feats, lens), y


def make_target():
    torch.manual_seed(0)
    train_x, train_y = patients(256, 1)
    return {
        "model": SequenceRisk(),
        "batch": ((train_x[0][:32], train_x[1][:32]), train_y[:32]),
        "loss_fn": lambda out, y: F.binary_cross_entropy_with_logits(out, y),
        "metric_fn": lambda out, y: ((out > 0).float() == y).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": [((train_x[0][i : i + 32], train_x[1][i : i + 32]), train_y[i : i + 32]) for i in range(0, 256, 32)],
        "val_data": [patients(128, 2)],
    }
