"""Bidirectional LSTM sentiment classifier whose forward ends in a sigmoid, trained with BCEWithLogitsLoss."""

import torch
import torch.nn as nn

VOCAB, PAD = 200, 0


class SentimentLSTM(nn.Module):
    def __init__(self, vocab=VOCAB, emb=32, hidden=32):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.rnn = nn.LSTM(emb, hidden, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * hidden, 1)
        self.sigmoid = nn.Sigmoid()

    def forward(self, text):
        embedded = self.embedding(text)
        _, (hidden, _) = self.rnn(embedded)
        hidden = torch.cat((hidden[-2], hidden[-1]), dim=1)
        return self.sigmoid(self.fc(hidden)).squeeze(1)


criterion = nn.BCEWithLogitsLoss()


def binary_accuracy(preds, y):
    return float((torch.round(preds) == y).float().mean())


def make_data(n, g, seq=20):
    """Reviews of random tokens; tokens 1-20 are 'positive' words, 21-40 'negative' words."""
    x = torch.randint(41, VOCAB, (n, seq), generator=g)
    y = (torch.rand(n, generator=g) < 0.5).float()
    n_cue = torch.randint(1, 4, (n,), generator=g)
    for i in range(n):
        lo = 1 if y[i] == 1 else 21
        pos = torch.randperm(seq, generator=g)[: int(n_cue[i])]
        x[i, pos] = torch.randint(lo, lo + 20, (int(n_cue[i]),), generator=g)
    return x, y


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    x_tr, y_tr = make_data(512, g)
    x_va, y_va = make_data(256, g)
    return {
        "model": SentimentLSTM(),
        "batch": (x_tr[:64], y_tr[:64]),
        "loss_fn": criterion,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "metric_fn": binary_accuracy,
        "train_data": (x_tr, y_tr),
        "val_data": (x_va, y_va),
    }
