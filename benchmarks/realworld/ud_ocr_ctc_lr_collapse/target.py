"""Tiny CRNN-style text recogniser trained with CTC (PaddleOCR-like rec config, single GPU, batch 128)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

NUM_CHARS = 10          # character dictionary size; class 0 is the CTC blank
FRAMES_PER_CHAR = 3
TEXT_LEN = 4
FEAT = 16

CONFIG = {
    "Optimizer": {"name": "Adam", "beta1": 0.9, "beta2": 0.999,
                  "lr": {"learning_rate": 0.1}},
    "Train": {"batch_size_per_card": 128},
}


class CRNN(nn.Module):
    def __init__(self, feat=FEAT, hidden=48, n_cls=NUM_CHARS + 1):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(feat, hidden, 3, padding=1), nn.ReLU(),
                                  nn.Conv1d(hidden, hidden, 3, padding=1), nn.ReLU())
        self.rnn = nn.GRU(hidden, hidden, batch_first=True, bidirectional=True)
        self.head = nn.Linear(2 * hidden, n_cls)

    def forward(self, x):                      # x: (B, T, feat)
        h = self.conv(x.transpose(1, 2)).transpose(1, 2)
        h, _ = self.rnn(h)
        return self.head(h)                    # (B, T, n_cls) logits


_PROTO = torch.Generator().manual_seed(123)
PROTOTYPES = torch.randn(NUM_CHARS + 1, FEAT, generator=_PROTO)


def synth_batch(n, seed):
    g = torch.Generator().manual_seed(seed)
    text = torch.randint(1, NUM_CHARS + 1, (n, TEXT_LEN), generator=g)
    frames = text.repeat_interleave(FRAMES_PER_CHAR, dim=1)
    x = PROTOTYPES[frames] + 0.8 * torch.randn(n, frames.shape[1], FEAT, generator=g)
    return x, text


def ctc_loss(logits, text):
    logp = logits.log_softmax(-1).transpose(0, 1)          # (T, B, C)
    B, T = logits.shape[0], logits.shape[1]
    in_len = torch.full((B,), T, dtype=torch.long)
    tgt_len = torch.full((B,), text.shape[1], dtype=torch.long)
    return F.ctc_loss(logp, text, in_len, tgt_len, blank=0, zero_infinity=True)


def greedy_decode(logits):
    best = logits.argmax(-1)
    out = []
    for row in best.tolist():
        seq, prev = [], 0
        for c in row:
            if c != prev and c != 0:
                seq.append(c)
            prev = c
        out.append(seq)
    return out


def word_accuracy(logits, text):
    pred = greedy_decode(logits)
    return sum(p == t for p, t in zip(pred, text.tolist())) / len(pred)


def build_optimizer(params):
    o = CONFIG["Optimizer"]
    return torch.optim.Adam(params, lr=o["lr"]["learning_rate"], betas=(o["beta1"], o["beta2"]))


def make_target():
    torch.manual_seed(0)
    bs = CONFIG["Train"]["batch_size_per_card"]
    x, text = synth_batch(bs, seed=1)
    return {
        "model": CRNN(),
        "batch": (x, text),
        "loss_fn": ctc_loss,
        "optimizer": build_optimizer,
        "metric_fn": word_accuracy,
        "train_data": [synth_batch(bs, seed=10 + i) for i in range(8)],
        "val_data": [synth_batch(bs, seed=1000)],
    }
