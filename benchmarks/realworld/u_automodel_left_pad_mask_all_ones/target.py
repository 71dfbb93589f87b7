"""SFT data packaging for a tiny causal LM: the tokenizer pads on the LEFT, the attention mask is built by
stripping trailing pad tokens."""

import torch
from torch import nn

VOCAB, PAD = 64, 0


def package(token_lists, seq_len, pad_id=PAD):
    """Left-pad each example to seq_len; build attention_mask and labels."""
    ids, masks, labels = [], [], []
    for toks in token_lists:
        row = [pad_id] * (seq_len - len(toks)) + list(toks)
        # content length = sequence length minus the trailing run of pad tokens
        content_length = len(row)
        while content_length > 0 and row[content_length - 1] == pad_id:
            content_length -= 1
        mask = [1] * content_length + [0] * (len(row) - content_length)
        lab = [t if t != pad_id else -100 for t in row]
        ids.append(row); masks.append(mask); labels.append(lab)
    return torch.tensor(ids), torch.tensor(masks), torch.tensor(labels)


class TinyLM(nn.Module):
    def __init__(self, d=32, heads=2, max_len=64):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, d)
        self.pos = nn.Embedding(max_len, d)
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.head = nn.Linear(d, VOCAB)

    def forward(self, input_ids, attention_mask):
        T = input_ids.shape[1]
        pos = (attention_mask.long().cumsum(-1) - 1).clamp(min=0)
        h = self.tok(input_ids) + self.pos(pos)
        causal = torch.triu(torch.ones(T, T, dtype=torch.bool), 1)
        a, _ = self.attn(self.ln1(h), self.ln1(h), self.ln1(h), attn_mask=causal,
                         key_padding_mask=attention_mask == 0, need_weights=False)
        h = h + a
        h = h + self.ff(self.ln2(h))
        return self.head(h)


def loss_fn(logits, labels):
    return nn.functional.cross_entropy(logits[:, :-1].reshape(-1, VOCAB), labels[:, 1:].reshape(-1), ignore_index=-100)


def examples(n=8, seed=0):
    g = torch.Generator().manual_seed(seed)
    return [torch.randint(1, VOCAB, (int(torch.randint(5, 16, (1,), generator=g)),), generator=g).tolist() for _ in range(n)]


def make_target():
    torch.manual_seed(0)
    ids, mask, labels = package(examples(), seq_len=24)
    return {
        "model": TinyLM(),
        "batch": ({"input_ids": ids, "attention_mask": mask}, labels),
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=1e-3),
        "causal": True,
    }
