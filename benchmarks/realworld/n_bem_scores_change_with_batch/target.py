"""Answer-equivalence scorer (BEM-style): a small encoder over the [question; reference; candidate] token ids and a
2-way head; the score is the probability of the "equivalent" class."""

import torch
import torch.nn as nn

VOCAB = 200


class Scorer(nn.Module):
    def __init__(self, vocab=VOCAB, dim=32):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.head = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Linear(dim, 2))

    def forward(self, ids):
        logits = self.head(self.emb(ids))
        return torch.softmax(logits, dim=0)  # probabilities of [not equivalent, equivalent]


def triples(n, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, VOCAB, (n, 24), generator=g)
    y = (ids[:, 16:].float().mean(1) > ids[:, 8:16].float().mean(1)).long()
    return ids, y


def make_target():
    torch.manual_seed(0)
    return {
        "model": Scorer(),
        "batch": triples(16, 1),
        "loss_fn": lambda probs, y: nn.functional.nll_loss(torch.log(probs + 1e-9), y),
        "metric_fn": lambda probs, y: (probs.argmax(1) == y).float().mean().item(),
        "val_data": triples(64, 2),
    }
