"""Instruction fine-tuning of a tiny causal LM. The dataset masks the prompt tokens with -100 and truncates every
example to max_words; with instructions longer than max_words nothing of the response survives the truncation."""

import torch
from torch import nn
import torch.nn.functional as F

IGNORE_INDEX = -100
VOCAB = 64


class TinyLM(nn.Module):
    def __init__(self, vocab=VOCAB, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, input_ids):
        h, _ = self.rnn(self.emb(input_ids))
        return self.head(h)


def build_example(prompt_ids, answer_ids, max_words):
    example = torch.tensor(prompt_ids + answer_ids)
    labels = example.clone()
    example = example[:max_words]
    labels = labels[:max_words]
    labels[: len(prompt_ids)] = IGNORE_INDEX
    pad = max_words - len(example)
    if pad > 0:
        example = torch.cat([example, torch.zeros(pad, dtype=torch.long)])
        labels = torch.cat([labels, torch.full((pad,), IGNORE_INDEX)])
    return example, labels


def make_batch(n, prompt_len, answer_len=8, max_words=32, seed=0):
    g = torch.Generator().manual_seed(seed)
    xs, ys = [], []
    for _ in range(n):
        prompt = torch.randint(3, VOCAB, (prompt_len,), generator=g).tolist()
        answer = [(t * 7 + 3) % VOCAB for t in prompt[:answer_len]]
        x, y = build_example(prompt, answer, max_words)
        xs.append(x)
        ys.append(y)
    return torch.stack(xs), torch.stack(ys)


def lm_loss(logits, labels):
    # shift for next-token prediction; mean over supervised tokens (guarded against an empty count)
    logits, labels = logits[:, :-1], labels[:, 1:]
    per_tok = F.cross_entropy(logits.reshape(-1, logits.size(-1)), labels.reshape(-1),
                              ignore_index=IGNORE_INDEX, reduction="sum")
    n = (labels != IGNORE_INDEX).sum().clamp(min=1)
    return per_tok / n


def make_target():
    torch.manual_seed(0)
    model = TinyLM()
    # the new instruction set: prompts of 40-ish tokens, max_words kept at 32
    batch = make_batch(8, prompt_len=40, seed=1)
    return {
        "model": model,
        "batch": batch,
        "loss_fn": lm_loss,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=1e-3),
        "causal": True,
        "train_data": [make_batch(8, prompt_len=40, seed=s) for s in range(2, 6)],
    }
