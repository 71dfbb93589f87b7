"""DPN-style prototypical training for new intent discovery: pooled utterance features are softly assigned to
(k-means) prototypes and pulled towards them."""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, K, D = 300, 10, 32


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(VOCAB, 64, mode="mean")
        self.proj = nn.Linear(64, D)
        self.register_buffer("protos", F.normalize(torch.randn(K, D, generator=torch.Generator().manual_seed(5)), dim=1))

    def forward(self, ids):
        return F.normalize(self.proj(torch.tanh(self.emb(ids))), dim=1), self.protos


def proto_loss(out, _labels, temperature=0.1):
    pooled, protos = out
    sim = pooled @ protos.T / temperature
    s_dist = F.softmax(sim, dim=0)
    cost = torch.cdist(pooled, protos)
    return (cost * s_dist).sum(0).mean()


def _utterances(n, seed):
    g = torch.Generator().manual_seed(seed)
    intent = torch.randint(0, K, (n,), generator=g)
    ids = (intent[:, None] * (VOCAB // K) + torch.randint(0, VOCAB // K, (n, 8), generator=g)) % VOCAB
    return ids, intent


def make_target():
    torch.manual_seed(0)
    return {
        "model": Encoder(),
        "batch": _utterances(32, 1),
        "loss_fn": proto_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": _utterances(256, 2),
    }
