"""The masked SFT loss of the diff on a batch whose assistant tokens were all truncated away."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _sft_loss(logits, targets, mask):
    logits = logits[:, :-1].reshape(-1, logits.size(-1))
    targets = targets[:, 1:].reshape(-1)
    mask = mask[:, 1:].reshape(-1).bool()
    return F.cross_entropy(logits[mask], targets[mask])


def _check() -> str:
    torch.manual_seed(0)
    vocab, seq = 50, 12
    model = nn.Sequential(nn.Embedding(vocab, 16), nn.Linear(16, vocab))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    ids = torch.randint(0, vocab, (4, seq))
    normal = torch.zeros(4, seq)
    normal[:, 8:] = 1  # assistant reply in the last 4 positions
    truncated = torch.zeros(4, seq)  # max length cut before the reply starts: nothing left to learn from
    losses = []
    for mask in (normal, normal, truncated, normal):
        opt.zero_grad()
        loss = _sft_loss(model(ids), ids, mask)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert math.isfinite(losses[0]) and math.isfinite(losses[1]), losses
    assert math.isnan(losses[2]) and math.isfinite(losses[3]), losses
    mean = sum(losses) / len(losses)
    assert math.isnan(mean), mean
    return f"per-step losses {[round(v, 3) for v in losses]}: the fully masked batch logs nan, the epoch mean is {mean}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
