"""Tiny causal LM fine-tuned on prompt/completion pairs with a completion-only loss.

Sequences are truncated to MAX_LENGTH tokens; prompts are longer than MAX_LENGTH. Labels are -100 on
prompt tokens. The loss divides the summed token loss by the number of labelled tokens (at least 1).
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, PROMPT_LEN, COMPLETION_LEN, MAX_LENGTH = 50, 20, 6, 16


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 32)
        self.rnn = nn.GRU(32, 32, batch_first=True)
        self.head = nn.Linear(32, VOCAB)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.head(h)


def completion_only_loss(logits, labels):
    logits, labels = logits[:, :-1], labels[:, 1:]
    per_tok = F.cross_entropy(logits.reshape(-1, VOCAB), labels.reshape(-1), ignore_index=-100, reduction="sum")
    n = (labels != -100).sum().clamp(min=1)
    return per_tok / n


def _pairs(n, seed):
    g = torch.Generator().manual_seed(seed)
    prompt = torch.randint(1, VOCAB, (n, PROMPT_LEN), generator=g)
    completion = (prompt[:, :COMPLETION_LEN] + 1) % VOCAB
    ids = torch.cat([prompt, completion], 1)
    labels = ids.clone()
    labels[:, :PROMPT_LEN] = -100
    return ids[:, :MAX_LENGTH], labels[:, :MAX_LENGTH]


def make_target():
    torch.manual_seed(0)
    ids, labels = _pairs(128, 1)
    return {
        "model": TinyLM(),
        "batch": (ids[:16], labels[:16]),
        "loss_fn": completion_only_loss,
        "optimizer": lambda params: torch.optim.AdamW(params, lr=5e-4, weight_decay=0.0),
        "train_data": (ids, labels),
        "causal": True,
    }
