import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, VOCAB, CTX = 0, 40, 32


def _captions(n, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.full((n, CTX), PAD)
    lengths = torch.randint(4, 9, (n,), generator=g)
    for i in range(n):
        ids[i, : lengths[i]] = torch.randint(1, VOCAB, (int(lengths[i]),), generator=g)
    return ids


def _check() -> str:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Embedding(VOCAB, 32), nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, VOCAB))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    caps = _captions(512, 1)
    crit = nn.CrossEntropyLoss()  # default ignore_index=-100, pads are 0
    for _ in range(5):
        for i in range(0, len(caps), 32):
            b = caps[i : i + 32]
            logits = model(b[:, :-1])
            loss = crit(logits.reshape(-1, VOCAB), b[:, 1:].reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
    val = _captions(256, 2)
    with torch.no_grad():
        logits = model(val[:, :-1]).reshape(-1, VOCAB)
        tgt = val[:, 1:].reshape(-1)
        logged = crit(logits, tgt).item()
        real = F.cross_entropy(logits, tgt, ignore_index=PAD).item()
        pad_frac = (tgt == PAD).float().mean().item()
    assert pad_frac > 0.7 and logged < 0.4 * real, (logged, real, pad_frac)
    return f"logged caption loss {logged:.2f}, loss on real caption tokens {real:.2f} ({pad_frac:.0%} of targets are padding)"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
