"""Tiny token-level policy-gradient step on right-padded response batches.

Each sequence carries a per-sequence advantage; the per-token surrogate is -A * log pi(a_t).
Responses have different lengths, so the batch is right-padded and a loss mask marks real tokens.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0
VOCAB = 40


class TinyPolicy(nn.Module):
    def __init__(self, vocab=VOCAB, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.head(h)


def build_rollouts(n=8, width=16, seed=3):
    g = torch.Generator().manual_seed(seed)
    ids = torch.full((n, width), PAD)
    actions = torch.full((n, width), PAD)
    mask = torch.zeros(n, width)
    for i in range(n):
        length = int(torch.randint(3, 9, (1,), generator=g))
        seq = torch.randint(1, VOCAB, (length + 1,), generator=g)
        ids[i, :length] = seq[:-1]
        actions[i, :length] = seq[1:]
        mask[i, :length] = 1.0
    adv = torch.randn(n, generator=g)
    return ids, (actions, adv, mask)


def policy_loss(logits, targets):
    actions, adv, mask = targets
    logp = F.log_softmax(logits, dim=-1).gather(-1, actions.unsqueeze(-1)).squeeze(-1)
    per_token = -adv[:, None] * logp * mask
    return per_token.mean()          # token mean over the whole padded tensor


def make_target():
    torch.manual_seed(0)
    ids, targets = build_rollouts()
    return {
        "model": TinyPolicy(),
        "batch": ((ids,), targets),
        "loss_fn": policy_loss,
        "optimizer": lambda params: torch.optim.AdamW(params, lr=1e-3),
    }
