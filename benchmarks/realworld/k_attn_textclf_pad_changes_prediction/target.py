"""Recurrent encoder + additive attention text classifier (seq2seq-attention style). Sentences in a batch
are right-padded with PAD_ID; the attention softmax runs over every position of the padded batch."""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, PAD_ID, N_CLASSES = 200, 1, 4


class AttnClassifier(nn.Module):
    def __init__(self, emb=32, hidden=32):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, emb, padding_idx=PAD_ID)
        self.rnn = nn.GRU(emb, hidden, batch_first=True)
        self.att = nn.Linear(hidden, hidden)
        self.v = nn.Linear(hidden, 1, bias=False)
        self.out = nn.Linear(hidden, N_CLASSES)

    def forward(self, ids):                                  # ids: (B, T), right-padded with PAD_ID
        h, _ = self.rnn(self.emb(ids))                       # (B, T, H)
        scores = self.v(torch.tanh(self.att(h))).squeeze(-1) # (B, T)
        weights = F.softmax(scores, dim=1)
        ctx = (weights.unsqueeze(-1) * h).sum(1)
        return self.out(ctx)


def pad_batch(seqs):
    T = max(len(s) for s in seqs)
    return torch.stack([torch.cat([s, torch.full((T - len(s),), PAD_ID, dtype=torch.long)]) for s in seqs])


def make_sentences(n, seed):
    g = torch.Generator().manual_seed(seed)
    seqs, labels = [], []
    for _ in range(n):
        y = int(torch.randint(0, N_CLASSES, (1,), generator=g))
        length = int(torch.randint(3, 30, (1,), generator=g))
        toks = torch.randint(2, VOCAB, (length,), generator=g)
        toks[torch.rand(length, generator=g) < 0.3] = 2 + 10 * y     # class keyword
        seqs.append(toks)
        labels.append(y)
    return seqs, torch.tensor(labels)


def batches(seqs, labels, size=32):
    return [(pad_batch(seqs[i : i + size]), labels[i : i + size]) for i in range(0, len(seqs), size)]


def make_target():
    torch.manual_seed(0)
    tr_s, tr_y = make_sentences(512, 1)
    va_s, va_y = make_sentences(128, 2)
    return {
        "model": AttnClassifier(),
        "batch": batches(tr_s, tr_y)[0],
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "train_data": batches(tr_s, tr_y),
        "val_data": batches(va_s, va_y),
    }
