"""Tiny causal LM whose loss shifts labels by one and then calls a loss helper that shifts again."""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = 16


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=VOCAB, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)  # causal by construction
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.head(h)


def causal_lm_loss(logits, labels, ignore_index=-100):
    """Shared helper: shifts so that position t predicts label t+1."""
    shift_logits = logits[:, :-1, :]
    shift_labels = labels[:, 1:]
    return F.cross_entropy(shift_logits.reshape(-1, logits.shape[-1]), shift_labels.reshape(-1),
                           ignore_index=ignore_index)


def model_loss(logits, labels):
    # model-specific code already shifts for next-token prediction ...
    shifted_logits = logits[:, :-1, :]
    shifted_labels = labels[:, 1:]
    # ... and then hands the result to the helper, which shifts again (BUG)
    return causal_lm_loss(shifted_logits, shifted_labels)


def make_batch(n=32, length=12, seed=0):
    g = torch.Generator().manual_seed(seed)
    start = torch.randint(0, VOCAB, (n, 1), generator=g)
    step = torch.randint(1, 4, (n, 1), generator=g)
    ids = (start + step * torch.arange(length)) % VOCAB  # arithmetic "captions"
    return ids


def make_target():
    torch.manual_seed(0)
    ids = make_batch()
    return {
        "model": TinyCausalLM(),
        "batch": (ids, ids.clone()),  # labels = input_ids, as the docs ask
        "loss_fn": model_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
        "causal": True,
    }
