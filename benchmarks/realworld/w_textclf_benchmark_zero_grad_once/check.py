"""Self-contained: bag-of-embeddings text classifier, Adam + element-wise grad clip, zero_grad once vs every step."""

import torch
import torch.nn as nn
import torch.nn.functional as F

V, T = 300, 30


class Clf(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(V, 32, mode="mean")
        self.fc = nn.Sequential(nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 2))

    def forward(self, x):
        return F.log_softmax(self.fc(self.emb(x)), dim=-1)


def make_data(n, g):
    y = torch.randint(0, 2, (n,), generator=g)
    x = torch.randint(20, V, (n, T), generator=g)
    k = torch.randint(2, 5, (n,), generator=g)
    for i in range(n):
        pos = torch.randperm(T, generator=g)[: int(k[i])]
        x[i, pos] = torch.randint(0, 10, (int(k[i]),), generator=g) + 10 * int(y[i])
    return x, y


def clip_gradient(optimizer, grad_clip):
    for group in optimizer.param_groups:
        for p in group["params"]:
            if p.grad is not None:
                p.grad.data.clamp_(-grad_clip, grad_clip)


def _run(zero_every_step):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    x, y = make_data(4096, g)
    xt, yt = make_data(512, g)
    model = Clf()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    opt.zero_grad()
    losses = []
    for _ in range(2):
        for i in range(0, 4096, 16):
            if zero_every_step:
                opt.zero_grad()
            loss = F.nll_loss(model(x[i:i + 16]), y[i:i + 16])
            loss.backward()
            clip_gradient(opt, 1.0)
            opt.step()
            losses.append(loss.item())
    with torch.no_grad():
        acc = float((model(xt).argmax(1) == yt).float().mean())
    return losses, acc


def _avg(v):
    return sum(v) / len(v)


def _check() -> str:
    bad, bad_acc = _run(False)
    ok, ok_acc = _run(True)
    best_early = min(bad[:100])
    assert _avg(bad[-50:]) > 3 * best_early and _avg(bad[-50:]) > 0.3, (best_early, _avg(bad[-50:]))
    assert _avg(ok[-50:]) < 0.05 and ok_acc > bad_acc + 0.05, (_avg(ok[-50:]), ok_acc, bad_acc)
    return (f"zero_grad once: loss {_avg(bad[:10]):.2f} (first 10) -> {min(bad[:100]):.2f} (best, first 100) -> "
            f"{_avg(bad[-50:]):.2f} (last 50), test acc {bad_acc:.2f}; zero_grad every step: {_avg(ok[-50:]):.3f}, "
            f"test acc {ok_acc:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
