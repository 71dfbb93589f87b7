"""ARC-style sequence model: context tokens (flattened example grids) followed by the output grid tokens.

Training step: output = model(src); targets are the tokens after the context, taken from src itself.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_TOKENS, D, CTX, SEQ = 12, 32, 8, 24


class GridTransformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.num_context_tokens = CTX
        self.tok = nn.Embedding(N_TOKENS, D)
        self.pos = nn.Parameter(torch.randn(SEQ, D))
        layer = nn.TransformerEncoderLayer(D, nhead=4, dim_feedforward=64, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2)
        self.head = nn.Linear(D, N_TOKENS + 1)

    def forward(self, src):
        h = self.encoder(self.tok(src) + self.pos[: src.shape[1]])
        # position t predicts token t + 1; keep the predictions for the output-grid tokens
        return self.head(h)[:, self.num_context_tokens - 1 : -1]


def arc_loss(output, src):
    target = src[:, CTX:]
    return F.cross_entropy(output.reshape(-1, N_TOKENS + 1), target.reshape(-1))


def _tasks(n, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, N_TOKENS, (n, SEQ), generator=g)


def make_target():
    torch.manual_seed(0)
    src = _tasks(32, 1)
    return {
        "model": GridTransformer(),
        "batch": (src, src),
        "loss_fn": arc_loss,
        "optimizer": lambda params: torch.optim.AdamW(params, lr=3e-3),
        "train_data": (_tasks(256, 2), _tasks(256, 2)),
        "val_data": (_tasks(128, 3), _tasks(128, 3)),
    }
