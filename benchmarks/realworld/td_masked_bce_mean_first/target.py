"""Joint entity/relation tagger: per-token multi-label relation tags predicted with a BiGRU, trained with a
masked BCE so that padded tokens of shorter sentences do not count."""
import torch
import torch.nn as nn

VOCAB, N_REL, PAD = 200, 6, 0


class MaskedBCE(nn.Module):
    def __init__(self):
        super().__init__()
        self.BCE = nn.BCEWithLogitsLoss()

    def forward(self, logits, gt, mask):
        loss = self.BCE(logits, gt)
        loss = torch.sum(loss.mul(mask)) / torch.sum(mask)
        return loss


class Tagger(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d, padding_idx=PAD)
        self.rnn = nn.GRU(d, d, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * d, N_REL)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.out(h)


criterion = MaskedBCE()


def loss_fn(logits, targets):
    gt, mask = targets
    return criterion(logits, gt, mask)


def make_batch(n, seed):
    g = torch.Generator().manual_seed(seed)
    lengths = torch.randint(4, 24, (n,), generator=g)
    T = int(lengths.max())
    tokens = torch.full((n, T), PAD, dtype=torch.long)
    gt = torch.zeros(n, T, N_REL)
    for i, L in enumerate(lengths.tolist()):
        tokens[i, :L] = torch.randint(1, VOCAB, (L,), generator=g)
        gt[i, :L] = (tokens[i, :L, None] % (N_REL + 3) == torch.arange(N_REL)).float()
    mask = (tokens != PAD).float().unsqueeze(-1)
    return tokens, (gt, mask)


def make_target():
    torch.manual_seed(0)
    tokens, targets = make_batch(16, seed=1)
    return {
        "model": Tagger(),
        "batch": (tokens, targets),
        "loss_fn": loss_fn,
        "val_data": [make_batch(16, seed=2)],
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
    }
