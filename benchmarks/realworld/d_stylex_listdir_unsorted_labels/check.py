"""Image paths taken in directory-listing order, attribute labels in the CSV's (sorted) order."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N = 1200


def _dataset():
    g = torch.Generator().manual_seed(0)
    names = [f"{i + 1:06d}.jpg" for i in range(N)]
    smiling = torch.randint(0, 2, (N,), generator=g)  # the attribute, stored per file name
    w = torch.randn(64, generator=g)
    pixels = {n: torch.randn(64, generator=g) + 1.5 * (2 * int(s) - 1) * w / w.norm() for n, s in zip(names, smiling)}
    csv_labels = smiling.clone()  # rows of the attribute file, in file-name order
    listing = [names[i] for i in torch.randperm(N, generator=g)]  # what an unsorted directory listing returns
    return pixels, listing, csv_labels


def _fit(images, labels):
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 2))
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    x, y = images[:1000], labels[:1000]
    for _ in range(3):
        for i in range(0, 1000, 50):
            opt.zero_grad()
            F.cross_entropy(net(x[i : i + 50]), y[i : i + 50]).backward()
            opt.step()
    with torch.no_grad():
        return float((net(images[1000:]).argmax(1) == labels[1000:]).float().mean())


def _check() -> str:
    pixels, listing, csv_labels = _dataset()
    acc_listdir = _fit(torch.stack([pixels[n] for n in listing]), csv_labels)
    acc_sorted = _fit(torch.stack([pixels[n] for n in sorted(listing)]), csv_labels)
    assert acc_listdir < 0.6 and acc_sorted > 0.9, (acc_listdir, acc_sorted)
    return f"held-out accuracy {acc_listdir:.2f} with the directory-listing order, {acc_sorted:.2f} with sorted paths"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
