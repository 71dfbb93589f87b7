"""DAM-style merge: learnable coefficients mix two frozen experts' logits; KL to teacher logits averaged over all positions."""

import torch
import torch.nn as nn
import torch.nn.functional as F

V, T, PAD = 32, 24, 0


class Expert(nn.Module):
    def __init__(self, seed):
        super().__init__()
        g = torch.Generator().manual_seed(seed)
        self.table = nn.Parameter(torch.randn(V, V, generator=g) * 2.0, requires_grad=False)

    def forward(self, ids):
        return self.table[ids]


class MergedModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.experts = nn.ModuleList([Expert(1), Expert(2)])
        self.coef = nn.Parameter(torch.full((2,), 0.5))

    def forward(self, input_ids, attention_mask=None):
        return sum(c * e(input_ids) for c, e in zip(self.coef, self.experts))


def kl_loss(student_logits, teacher_logits):
    return F.kl_div(F.log_softmax(student_logits, -1), F.log_softmax(teacher_logits, -1),
                    log_target=True, reduction="none").sum(-1).mean()


def make_batch(g, n=32):
    lengths = torch.randint(3, 9, (n,), generator=g)
    ids = torch.full((n, T), PAD)
    mask = torch.zeros(n, T, dtype=torch.long)
    for i in range(n):
        ids[i, : lengths[i]] = torch.randint(1, V, (int(lengths[i]),), generator=g)
        mask[i, : lengths[i]] = 1
    return ids, mask


def teacher_logits(ids, mask, experts):
    """Expert 1 is the teacher on real tokens; at padded positions its cached logits are those of the other run."""
    with torch.no_grad():
        real = experts[0](ids)
        pad = experts[1](ids)
    return torch.where(mask[..., None].bool(), real, pad)


def make_target():
    torch.manual_seed(0)
    model = MergedModel()
    ids, mask = make_batch(torch.Generator().manual_seed(0))
    return {
        "model": model,
        "batch": ({"input_ids": ids, "attention_mask": mask}, teacher_logits(ids, mask, model.experts)),
        "loss_fn": kl_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=0.05),
    }
