"""Self-contained: per-pixel segmentation head trained with the focal loss from the diff vs the same loss on logits."""
import math

import torch
import torch.nn.functional as F
from torch import nn


def focal_loss(y_true, y_pred, beta=0.25, gamma=2.0):
    pos = beta * (1 - y_pred) ** gamma * y_true * torch.log(y_pred)
    neg = (1 - beta) * y_pred ** gamma * (1 - y_true) * torch.log(1 - y_pred)
    return -(pos + neg).mean()


def focal_loss_logits(y_true, logits, beta=0.25, gamma=2.0):
    p = torch.sigmoid(logits)
    pos = beta * (1 - p) ** gamma * y_true * F.logsigmoid(logits)
    neg = (1 - beta) * p ** gamma * (1 - y_true) * F.logsigmoid(-logits)
    return -(pos + neg).mean()


def _data(seed=0):
    g = torch.Generator().manual_seed(seed)
    img = torch.rand(8, 3, 16, 16, generator=g)
    mask = (img[:, :1] > 0.5).float()          # easy, well separated foreground
    img = img * 20.0          # raw 0-20 intensity range
    return img, mask


def _train(stable, steps=200):
    torch.manual_seed(0)
    img, mask = _data()
    model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 1, 1))
    opt = torch.optim.Adam(model.parameters(), lr=5e-2)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        logits = model(img)
        loss = focal_loss_logits(mask, logits) if stable else focal_loss(mask, torch.sigmoid(logits))
        losses.append(loss.item())
        if not math.isfinite(loss.item()):
            break
        loss.backward()
        opt.step()
    return losses


def _check() -> str:
    bad = _train(stable=False)
    ok = _train(stable=True)
    assert not math.isfinite(bad[-1]) and len(bad) >= 2, (len(bad), bad[-3:])
    assert all(math.isfinite(v) for v in ok) and ok[-1] < 0.5 * ok[0], (ok[0], ok[-1])
    first_finite = [v for v in bad if math.isfinite(v)]
    return (f"focal loss with torch.log(prob): {first_finite[0]:.4f} -> {first_finite[-1]:.2e}, then {bad[-1]} at step "
            f"{len(bad)}; same loss computed from logits: {ok[0]:.4f} -> {ok[-1]:.2e}, finite for {len(ok)} steps")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
