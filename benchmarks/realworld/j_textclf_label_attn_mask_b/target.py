"""Text classifier: token embeddings, one learned query per label attending over the tokens (SDPA), padded batches."""

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, VOCAB, LEN = 0, 50, 16


class LabelAttentionClassifier(nn.Module):
    def __init__(self, dim=32, n_labels=2):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, dim, padding_idx=PAD)
        self.queries = nn.Parameter(torch.randn(n_labels, dim) * 0.1)
        self.score = nn.Linear(dim, 1)

    def forward(self, ids):
        h = self.emb(ids)  # (B, T, D)
        is_pad = ids == PAD  # True on padding
        attn_mask = is_pad[:, None, :]  # handed to SDPA, which reads True as "may attend"
        q = self.queries.expand(ids.shape[0], -1, -1)
        ctx = F.scaled_dot_product_attention(q, h, h, attn_mask=attn_mask)
        return self.score(ctx).squeeze(-1)  # (B, n_labels)


def sentences(n, seed):
    """Label 1 when token 7 appears; variable length, right-padded, always at least 2 padding slots."""
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(8, VOCAB, (n, LEN), generator=g)
    lengths = torch.randint(3, LEN - 1, (n,), generator=g)
    y = torch.randint(0, 2, (n,), generator=g)
    pos = (torch.rand(n, generator=g) * lengths).long()
    ids[y == 1, pos[y == 1]] = 7
    ids[torch.arange(LEN)[None, :] >= lengths[:, None]] = PAD
    return ids, y


def make_target():
    torch.manual_seed(0)
    return {
        "model": LabelAttentionClassifier(),
        "batch": sentences(32, 1),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "train_data": sentences(1024, 2),
        "val_data": sentences(512, 3),
    }
