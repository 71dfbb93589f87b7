"""Tiny causal LM fine-tuned on right-padded batches; labels are the shifted ids, pads included."""
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=48, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.head(h)


def build_batch(n=16, max_len=24, seed=1):
    g = torch.Generator().manual_seed(seed)
    ids = torch.full((n, max_len), PAD)
    for i in range(n):
        length = int(torch.randint(4, 9, (1,), generator=g))
        ids[i, :length] = torch.randint(1, 48, (length,), generator=g)
    labels = torch.cat([ids[:, 1:], torch.full((n, 1), PAD)], dim=1)   # pad positions kept as targets
    return ids, labels


def lm_loss(logits, labels):
    return F.cross_entropy(logits.reshape(-1, logits.size(-1)), labels.reshape(-1))


def make_target():
    torch.manual_seed(0)
    ids, labels = build_batch()
    return {
        "model": TinyCausalLM(),
        "batch": ((ids,), labels),
        "loss_fn": lm_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
    }
