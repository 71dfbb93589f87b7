"""Tiny string transducer (inflection-style): a lemma of 6 symbols -> an inflected form of 6 symbols.

Encoder GRU over the lemma, one output distribution per target position. Validation accuracy is the
fraction of word forms predicted exactly (all positions right), computed the way the training module
reports it at the end of each validation epoch.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_SYM, LEN, EVAL_BATCH = 12, 6, 64


class Transducer(nn.Module):
    def __init__(self, n_sym=N_SYM, emb=32, hidden=64):
        super().__init__()
        self.embed = nn.Embedding(n_sym, emb)
        self.enc = nn.GRU(emb, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, n_sym)

    def forward(self, src):                     # (B, LEN)
        h, _ = self.enc(self.embed(src))
        return self.out(h)                      # (B, LEN, n_sym)


def make_pairs(n, seed):
    g = torch.Generator().manual_seed(seed)
    src = torch.randint(0, N_SYM, (n, LEN), generator=g)
    tgt = (3 * src + 1) % N_SYM
    irregular = torch.rand(n, LEN, generator=g) < 0.015          # a few irregular forms
    tgt[irregular] = torch.randint(0, N_SYM, (int(irregular.sum()),), generator=g)
    return src, tgt


def loss_fn(logits, tgt):
    return F.cross_entropy(logits.reshape(-1, N_SYM), tgt.reshape(-1))


def validation_step(logits, tgt):
    """Accuracy for one validation batch."""
    return (logits.argmax(-1) == tgt).all(dim=1).float().mean().item()


def metric_fn(logits, tgt):
    """Epoch-level validation accuracy: the batch accuracies are collected and averaged."""
    accs = [validation_step(logits[i:i + EVAL_BATCH], tgt[i:i + EVAL_BATCH])
            for i in range(0, len(tgt), EVAL_BATCH)]
    return sum(accs) / len(accs)


@torch.no_grad()
def eval_fn(model, batch):
    model.eval()
    src, _ = batch
    return model(src)


def make_target():
    torch.manual_seed(0)
    train = make_pairs(2048, seed=1)
    val = make_pairs(1000, seed=2)
    return {
        "model": Transducer(),
        "batch": (train[0][:128], train[1][:128]),
        "loss_fn": loss_fn,
        "metric_fn": metric_fn,
        "eval_fn": eval_fn,
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": train,
        "val_data": val,
    }
