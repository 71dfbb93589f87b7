"""A small image decoder fitted to a few hundred 8x8 pictures: after 5 epochs its outputs are smooth averages,
after many more epochs they are sharp. The model and data are unchanged; only the training length differs."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _images(n, seed):
    g = torch.Generator().manual_seed(seed)
    imgs = torch.zeros(n, 8, 8)
    r = torch.randint(0, 6, (n, 2), generator=g)
    for i in range(n):
        imgs[i, r[i, 0] : r[i, 0] + 3, r[i, 1] : r[i, 1] + 3] = 1.0  # one bright square per picture
    return imgs.view(n, 64)


def _fit(epochs):
    torch.manual_seed(0)
    x = _images(300, 1)
    enc = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 8))
    dec = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 64))
    opt = torch.optim.Adam([*enc.parameters(), *dec.parameters()], lr=1e-3)
    for _ in range(epochs):
        for i in range(0, 300, 30):
            loss = F.binary_cross_entropy_with_logits(dec(enc(x[i : i + 30])), x[i : i + 30])
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        out = torch.sigmoid(dec(enc(x)))
    sharp = ((out < 0.1) | (out > 0.9)).float().mean().item()  # share of confidently black/white pixels
    return sharp, (out.round() != x).float().mean().item()


def _check() -> str:
    sharp5, err5 = _fit(5)
    sharp300, err300 = _fit(300)
    assert sharp5 < 0.75 and err5 > 0.05, (sharp5, err5)
    assert sharp300 > 0.95 and err300 < 0.02, (sharp300, err300)
    return f"crisp pixels {sharp5:.2f} after 5 epochs vs {sharp300:.2f} after 300; pixel error {err5:.3f} vs {err300:.3f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
