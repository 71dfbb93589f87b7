"""Self-contained: a replaced-token-detection head whose cross-entropy runs over every position. Padding positions get
label 0 (\"not replaced\"), so padding the same batch wider changes the loss and the gradient; masking them does not."""

import torch
import torch.nn as nn
import torch.nn.functional as F

V, PAD = 30, 0


def _batch(width, g):
    real = torch.randint(1, V, (4, 6), generator=g)
    replaced = (torch.rand(4, 6, generator=g) < 0.3).long()
    ids = torch.full((4, width), PAD)
    labels = torch.zeros(4, width, dtype=torch.long)  # (pred != input) * attention_mask -> 0 on padding
    mask = torch.zeros(4, width)
    ids[:, :6], labels[:, :6], mask[:, :6] = real, replaced, 1.0
    return ids, labels, mask


def _head():
    torch.manual_seed(0)
    return nn.Sequential(nn.Embedding(V, 32), nn.Linear(32, 2))


def _loss(head, ids, labels, mask, masked):
    scores = head(ids).view(-1, 2)
    if masked:
        keep = mask.view(-1).bool()
        return F.cross_entropy(scores[keep], labels.view(-1)[keep])
    return F.cross_entropy(scores, labels.view(-1))


def _grad_norm(masked, width):
    head = _head()
    ids, labels, mask = _batch(width, torch.Generator().manual_seed(3))
    loss = _loss(head, ids, labels, mask, masked)
    loss.backward()
    return loss.item(), head[1].weight.grad.norm().item()


def _check() -> str:
    l8, g8 = _grad_norm(False, 8)
    l16, g16 = _grad_norm(False, 16)
    m8, mg8 = _grad_norm(True, 8)
    m16, mg16 = _grad_norm(True, 16)
    assert abs(l8 - l16) > 0.02 and abs(g8 - g16) / g8 > 0.2, (l8, l16, g8, g16)
    assert abs(m8 - m16) < 1e-6 and abs(mg8 - mg16) < 1e-6, (m8, m16, mg8, mg16)
    return (f"loss over all positions: width 8 -> {l8:.4f} (grad {g8:.4f}), width 16 -> {l16:.4f} (grad {g16:.4f}); "
            f"masked to real tokens: {m8:.4f} / {m16:.4f} (grad {mg8:.4f} / {mg16:.4f})")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
