"""A tiny next-token model on a synthetic dialogue-like Markov corpus: a few epochs vs ten times more."""

import torch
import torch.nn as nn
import torch.nn.functional as F

V, CTX = 60, 3


def _corpus(n):
    g = torch.Generator().manual_seed(0)
    trans = torch.softmax(2.5 * torch.randn(V * V, V, generator=g), -1)
    seq = [0, 1]
    for _ in range(n):
        seq.append(int(torch.multinomial(trans[seq[-2] * V + seq[-1]], 1, generator=g)))
    s = torch.tensor(seq)
    x = torch.stack([s[i:len(s) - CTX + i] for i in range(CTX)], 1)
    return x, s[CTX:]


def _run(epochs):
    torch.manual_seed(0)
    x, y = _corpus(3000)
    model = nn.Sequential(nn.Embedding(V, 32), nn.Flatten(), nn.Linear(32 * CTX, 256), nn.GELU(), nn.Linear(256, V))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    curve = []
    for _ in range(epochs):
        perm = torch.randperm(len(y))
        for i in range(0, len(y), 512):
            idx = perm[i:i + 512]
            opt.zero_grad()
            loss = F.cross_entropy(model(x[idx]), y[idx])
            loss.backward()
            opt.step()
        with torch.no_grad():
            curve.append(F.cross_entropy(model(x), y).item())
    return curve


def _check() -> str:
    short = _run(6)
    long = _run(40)
    assert short[-1] < short[-2] < short[-3], short
    assert long[-1] < short[-1] - 0.5, (short[-1], long[-1])
    return (f"6 epochs: loss {short[0]:.2f} -> {short[-1]:.2f}, still falling ~{short[-2] - short[-1]:.2f}/epoch; "
            f"40 epochs: {long[-1]:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
