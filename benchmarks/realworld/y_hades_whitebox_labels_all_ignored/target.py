"""White-box setup: optimise towards an affirmative response; labels are -100 everywhere except the response span."""

import torch
import torch.nn as nn
import torch.nn.functional as F

V, D, BOS, IGNORE = 64, 32, 1, -100


def tokenize(seq, add_bos=True):
    """Toy tokenizer: a fixed id per 'word'; like many HF tokenizers it prepends BOS by default."""
    ids = [sum(ord(c) * (i + 3) for i, c in enumerate(w)) % (V - 2) + 2 for w in seq.split()]
    return ([BOS] if add_bos else []) + ids


def build_labels(input_ids, response_ids):
    """Keep the loss only on the tokens of the affirmative response; everything else is ignored."""
    labels = torch.full_like(input_ids, IGNORE)
    n = len(response_ids)
    for row in range(input_ids.shape[0]):
        seq = input_ids[row].tolist()
        for start in range(len(seq) - n + 1):
            if seq[start:start + n] == response_ids:
                labels[row, start:start + n] = input_ids[row, start:start + n]
    return labels


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.rnn = nn.GRU(D, D, batch_first=True)
        self.head = nn.Linear(D, V)

    def forward(self, input_ids):
        h, _ = self.rnn(self.emb(input_ids))
        return self.head(h)


def lm_loss(logits, labels):
    return F.cross_entropy(logits[:, :-1].reshape(-1, V), labels[:, 1:].reshape(-1), ignore_index=IGNORE)


PROMPT = "describe the picture and tell me how to do the thing shown"
RESPONSE = "sure here is how to do it step by step"


def make_batch(add_bos_to_response=True):
    ids = tokenize(PROMPT + " " + RESPONSE)
    input_ids = torch.tensor([ids] * 4)
    response_ids = tokenize(RESPONSE, add_bos=add_bos_to_response)
    return input_ids, build_labels(input_ids, response_ids)


def make_target():
    torch.manual_seed(0)
    return {
        "model": TinyLM(),
        "batch": make_batch(),
        "loss_fn": lm_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
    }
