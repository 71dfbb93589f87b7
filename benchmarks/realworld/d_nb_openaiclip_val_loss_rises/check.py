"""A tiny CLIP: two encoders trained with the symmetric contrastive loss on a small set of noisy image/caption pairs."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _pairs(n, seed):
    g = torch.Generator().manual_seed(seed)
    mix = torch.Generator().manual_seed(0)
    a, b = torch.randn(8, 48, generator=mix), torch.randn(8, 32, generator=mix)
    z = torch.randn(n, 8, generator=g)  # what the picture and its caption share
    return z @ a + 3.0 * torch.randn(n, 48, generator=g), z @ b + 3.0 * torch.randn(n, 32, generator=g)


def _clip_loss(img_enc, txt_enc, img, txt):
    i = F.normalize(img_enc(img), dim=-1)
    t = F.normalize(txt_enc(txt), dim=-1)
    logits = i @ t.T / 0.1
    target = torch.arange(len(img))
    return (F.cross_entropy(logits, target) + F.cross_entropy(logits.T, target)) / 2


def _check() -> str:
    torch.manual_seed(0)
    img_enc = nn.Sequential(nn.Linear(48, 256), nn.ReLU(), nn.Linear(256, 64))
    txt_enc = nn.Sequential(nn.Linear(32, 256), nn.ReLU(), nn.Linear(256, 64))
    opt = torch.optim.AdamW(list(img_enc.parameters()) + list(txt_enc.parameters()), lr=1e-3)
    img, txt = _pairs(256, 1)
    vimg, vtxt = _pairs(256, 2)
    train, valid = [], []
    for _ in range(30):
        perm = torch.randperm(256)
        total = 0.0
        for k in range(0, 256, 32):
            idx = perm[k : k + 32]
            opt.zero_grad()
            loss = _clip_loss(img_enc, txt_enc, img[idx], txt[idx])
            loss.backward()
            opt.step()
            total += loss.item()
        train.append(total / 8)
        with torch.no_grad():
            valid.append(
                sum(_clip_loss(img_enc, txt_enc, vimg[k : k + 32], vtxt[k : k + 32]).item() for k in range(0, 256, 32))
                / 8
            )
    best = min(range(30), key=valid.__getitem__)
    assert best <= 8 and valid[-1] > valid[best] + 0.3 and train[-1] < 0.5 * train[best], (best, train, valid)
    return (
        f"30 epochs on 256 pairs: train loss {train[0]:.2f} -> {train[-1]:.2f}; validation loss lowest "
        f"({valid[best]:.2f}) at epoch {best + 1}, then rising to {valid[-1]:.2f}"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
