"""Siamese sentence encoder trained with a SoftmaxLoss-style objective on NLI pairs (3 labels).

The classifier over (u, v, |u-v|) lives in the loss object, next to the model; the trainer builds its
optimizer from the model's parameters.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, DIM, N_LABELS, SEQ = 200, 32, 3, 12


class MeanPoolEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM)
        self.proj = nn.Linear(DIM, DIM)

    def encode(self, ids):
        return torch.tanh(self.proj(self.emb(ids).mean(1)))

    def forward(self, ids_a, ids_b):
        return self.encode(ids_a), self.encode(ids_b)


class SoftmaxLoss(nn.Module):
    def __init__(self, dim, n_labels):
        super().__init__()
        self.classifier = nn.Linear(3 * dim, n_labels)

    def forward(self, out, labels):
        u, v = out
        feats = torch.cat([u, v, (u - v).abs()], dim=-1)
        return F.cross_entropy(self.classifier(feats), labels)


torch.manual_seed(0)
softmax_loss = SoftmaxLoss(DIM, N_LABELS)


def _pairs(n, seed):
    g = torch.Generator().manual_seed(seed)
    a = torch.randint(0, VOCAB, (n, SEQ), generator=g)
    labels = torch.randint(0, N_LABELS, (n,), generator=g)
    b = a.clone()
    # entailment: near copy; neutral: half replaced; contradiction: fully replaced
    for i in range(n):
        k = {0: 2, 1: SEQ // 2, 2: SEQ}[int(labels[i])]
        b[i, :k] = torch.randint(0, VOCAB, (k,), generator=g)
    return (a, b), labels


def make_target():
    torch.manual_seed(0)
    model = MeanPoolEncoder()
    return {
        "model": model,
        "batch": _pairs(32, 1),
        "loss_fn": lambda out, y: softmax_loss(out, y),
        # the trainer's create_optimizer: only the model's parameters
        "optimizer": lambda params: torch.optim.AdamW(params, lr=2e-3),
        "metric_fn": lambda out, y: (softmax_loss.classifier(torch.cat([out[0], out[1], (out[0] - out[1]).abs()], -1)).argmax(-1) == y).float().mean().item(),
        "train_data": _pairs(256, 2),
        "val_data": _pairs(128, 3),
    }
