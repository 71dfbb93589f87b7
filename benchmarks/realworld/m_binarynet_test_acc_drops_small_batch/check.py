"""Self-contained: a small BinaryNet-style CNN (hardtanh activations) whose batch norm layers normalise with the statistics of the batch
in hand at test time too (no population statistics), evaluated with different test batch sizes."""

import torch
from torch import nn
import torch.nn.functional as F


def _net():
    # track_running_stats=False: batch statistics are used in train and in eval alike
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16, track_running_stats=False), nn.Hardtanh(),
        nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32, track_running_stats=False), nn.Hardtanh(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 10),
    )


def _data(n, g):
    y = torch.randint(0, 10, (n,), generator=g)
    proto = torch.linspace(-1, 1, 10)
    x = torch.randn(n, 3, 8, 8, generator=g) * 0.8
    x[:, 0] += proto[y].view(-1, 1, 1)
    x[:, 1, :4] += proto.flip(0)[y].view(-1, 1, 1)
    return x, y


def _acc(model, x, y, bs):
    model.eval()
    correct = 0
    with torch.no_grad():
        for i in range(0, len(x), bs):
            correct += (model(x[i:i + bs]).argmax(1) == y[i:i + bs]).sum().item()
    return correct / len(x)


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = _net()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    xtr, ytr = _data(2048, g)
    xte, yte = _data(512, g)
    model.train()
    for _ in range(3):
        for i in range(0, len(xtr), 128):
            opt.zero_grad()
            F.cross_entropy(model(xtr[i:i + 128]), ytr[i:i + 128]).backward()
            opt.step()
    accs = {bs: _acc(model, xte, yte, bs) for bs in (128, 32, 8, 2, 1)}
    assert accs[128] > 0.5, accs
    assert accs[128] - accs[8] > 0.1 and accs[8] > accs[2], accs
    # batch of one: the outputs of different images are much closer to each other than in a big batch
    model.eval()
    with torch.no_grad():
        singles = torch.cat([model(xte[i:i + 1]) for i in range(64)])
        big = model(xte[:64])
    ratio = (singles.std(0).mean() / big.std(0).mean()).item()
    assert ratio < 0.5 and accs[1] < accs[128] - 0.2, (ratio, accs)
    # the same sample's prediction depends on which other samples share its test batch
    with torch.no_grad():
        a = model(xte[:8])[0]
        b = model(torch.cat([xte[:1], xte[100:107]]))[0]
    assert (a - b).abs().max().item() > 1e-2
    return ("test accuracy by test batch size: " + ", ".join(f"bs={k}: {v:.2f}" for k, v in accs.items())
            + f"; bs=1 output spread across images {ratio:.2f}x that of bs=64; same image, other batch mates: "
            f"max logit change {(a - b).abs().max().item():.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
