"""Tiny instruction-tuning setup: prompt tokens get label -100, then the pair is cut to max_seq_len."""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = 64
MAX_SEQ_LEN = 24
IGNORE = -100


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=VOCAB, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, input_ids):
        h, _ = self.rnn(self.emb(input_ids))
        return self.head(h)


def build_example(prompt, response, max_len=MAX_SEQ_LEN):
    ids = prompt + response
    labels = [IGNORE] * len(prompt) + response
    ids, labels = ids[:max_len], labels[:max_len]          # right-truncate both
    pad = max_len - len(ids)
    return ids + [0] * pad, labels + [IGNORE] * pad


def collate(pairs):
    rows = [build_example(p, r) for p, r in pairs]
    ids = torch.tensor([r[0] for r in rows])
    labels = torch.tensor([r[1] for r in rows])
    return ids, labels


def lm_loss(logits, labels):
    shift_logits = logits[:, :-1].reshape(-1, logits.size(-1))
    shift_labels = labels[:, 1:].reshape(-1)
    return F.cross_entropy(shift_logits, shift_labels, ignore_index=IGNORE)


def _pairs(g, n, prompt_len, resp_len):
    return [(torch.randint(1, VOCAB, (prompt_len,), generator=g).tolist(),
             torch.randint(1, VOCAB, (resp_len,), generator=g).tolist()) for _ in range(n)]


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    # long-document examples: the prompt alone is longer than MAX_SEQ_LEN
    batch = collate(_pairs(g, 4, prompt_len=30, resp_len=6))
    short = [collate(_pairs(g, 4, prompt_len=10, resp_len=6)) for _ in range(3)]
    long_ = [collate(_pairs(g, 4, prompt_len=30, resp_len=6)) for _ in range(3)]
    train_data = [b for pair in zip(short, long_) for b in pair]
    return {
        "model": TinyCausalLM(),
        "batch": batch,
        "loss_fn": lm_loss,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=2e-4),
        "train_data": train_data,
        "causal": True,
    }
