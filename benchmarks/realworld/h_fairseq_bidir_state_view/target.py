"""Bidirectional LSTM sentence classifier whose final forward/backward states are merged into one vector per sentence."""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, T = 12, 10


class BiEncoderClassifier(nn.Module):
    def __init__(self, emb=16, hidden=24, layers=1):
        super().__init__()
        self.layers, self.hidden = layers, hidden
        self.embed = nn.Embedding(VOCAB, emb)
        self.lstm = nn.LSTM(emb, hidden, num_layers=layers, bidirectional=True)  # sequence-first
        self.head = nn.Linear(2 * hidden, 2)

    def combine_directions(self, h_n):
        # h_n: (layers * 2, batch, hidden) -> (layers, batch, 2 * hidden)
        bsz = h_n.size(1)
        return h_n.contiguous().view(self.layers, bsz, -1)

    def forward(self, tokens):  # tokens: (T, B)
        _, (h_n, _) = self.lstm(self.embed(tokens))
        final = self.combine_directions(h_n)[-1]
        return self.head(final)


def _sentences(n, seed):
    g = torch.Generator().manual_seed(seed)
    tok = torch.randint(2, VOCAB, (T, n), generator=g)
    y = torch.randint(0, 2, (n,), generator=g)
    tok[0] = y  # the label is written in the first token, the rest is noise
    return tok, y


def make_target():
    torch.manual_seed(0)
    x, y = _sentences(32, 1)
    return {
        "model": BiEncoderClassifier(),
        "batch": (x, y),
        "batch_axis": 1,
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
        "train_data": [(x[:, i : i + 32], y[i : i + 32]) for x, y in [_sentences(512, 2)] for i in range(0, 512, 32)],
        "val_data": _sentences(256, 3),
    }
