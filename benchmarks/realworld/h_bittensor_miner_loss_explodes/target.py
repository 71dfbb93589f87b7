"""Small deep next-token MLP: embedding, a stack of un-normalised ReLU layers, 512-way softmax; SGD, no clipping."""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, CTX, WIDTH, DEPTH = 512, 4, 64, 8


class Miner(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 16)
        layers, d = [], 16 * CTX
        for _ in range(DEPTH):
            lin = nn.Linear(d, WIDTH)
            nn.init.normal_(lin.weight, std=2.2 / d**0.5)
            layers += [lin, nn.ReLU()]
            d = WIDTH
        self.body = nn.Sequential(*layers)
        self.head = nn.Linear(WIDTH, VOCAB)
        nn.init.zeros_(self.head.weight)  # start from a uniform prediction
        nn.init.zeros_(self.head.bias)

    def forward(self, ids):
        return self.head(self.body(self.emb(ids).flatten(1)))


def _tokens(n, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, VOCAB, (n, CTX + 1), generator=g)
    ids[:, -1] = (ids[:, 0] * 7 + ids[:, 1]) % VOCAB
    return ids[:, :CTX], ids[:, -1]


def make_target():
    torch.manual_seed(0)
    return {
        "model": Miner(),
        "batch": _tokens(32, 1),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.05, momentum=0.9),
        "train_data": _tokens(1024, 2),
        "val_data": _tokens(256, 3),
    }
