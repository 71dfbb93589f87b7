"""Tiny causal LM; chat samples whose response is a single token; response-only label masking."""
import torch
from torch import nn
import torch.nn.functional as F

VOCAB, T, RESP_MARK = 64, 12, 3   # token 3 = "<assistant>" marker, answer token follows it


class TinyLM(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d)
        self.pos = nn.Parameter(torch.randn(T, d) * 0.02)
        self.layer = nn.TransformerEncoderLayer(d, 2, 64, dropout=0.0, batch_first=True)
        self.head = nn.Linear(d, VOCAB)

    def forward(self, ids):
        mask = torch.triu(torch.full((ids.shape[1], ids.shape[1]), float("-inf")), 1)
        h = self.layer(self.emb(ids) + self.pos[: ids.shape[1]], src_mask=mask)
        return self.head(h)


def make_example(g):
    prompt = torch.randint(10, VOCAB, (T - 2,), generator=g)
    answer = torch.tensor([4 if prompt.sum() % 2 == 0 else 5])  # "yes"/"no"
    return torch.cat([prompt, torch.tensor([RESP_MARK]), answer])


def mask_to_response(ids):
    """Keep only the response tokens as labels; everything up to the end of the response header is -100."""
    labels = ids.clone()
    for i in range(ids.shape[0]):
        start = (ids[i] == RESP_MARK).nonzero()[0].item()
        # the header is "<assistant>" plus the token right after it (newline in the real template)
        labels[i, : start + 2] = -100
    return labels


def lm_loss(logits, labels):
    shift_logits, shift_labels = logits[:, :-1].flatten(0, 1), labels[:, 1:].flatten()
    n = (shift_labels != -100).sum()
    total = F.cross_entropy(shift_logits, shift_labels, ignore_index=-100, reduction="sum")
    return total / n.clamp(min=1)


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    ids = torch.stack([make_example(g) for _ in range(16)])
    labels = mask_to_response(ids)
    return {
        "model": TinyLM(),
        "batch": (ids, labels),
        "loss_fn": lm_loss,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=1e-3, weight_decay=0.0),
        "causal": True,
    }
