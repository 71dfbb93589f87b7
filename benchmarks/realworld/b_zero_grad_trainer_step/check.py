import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self, vocab=32, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tok):
        return self.out(torch.tanh(self.emb(tok)))


def _run(zero_grad: bool, steps: int = 100):
    torch.manual_seed(0)
    model = TinyLM()
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    gen = torch.Generator().manual_seed(1)
    norms, losses = [], []
    for _ in range(steps):
        tok = torch.randint(0, 32, (32,), generator=gen)
        noise = torch.randint(0, 4, (32,), generator=gen)
        tgt = (tok * 7 + 3 + noise) % 32  # a fresh, noisy mini-batch every step
        loss = F.cross_entropy(model(tok), tgt)
        loss.backward()
        norms.append(float(torch.sqrt(sum((p.grad ** 2).sum() for p in model.parameters()))))
        opt.step()
        if zero_grad:
            opt.zero_grad()
        losses.append(float(loss.detach()))
    return losses, norms


def _check() -> str:
    bad_l, bad_n = _run(zero_grad=False)
    good_l, good_n = _run(zero_grad=True)
    tail = lambda v: sum(v[-10:]) / 10
    assert tail(bad_n) > 5 * tail(good_n), (tail(bad_n), tail(good_n))
    assert tail(bad_l) > min(bad_l) + 0.8, (min(bad_l), tail(bad_l))
    assert tail(bad_l) > tail(good_l) + 0.5, (tail(bad_l), tail(good_l))
    return (f"without zero_grad: grad norm {bad_n[0]:.2f} -> {tail(bad_n):.2f}, loss min {min(bad_l):.2f} then "
            f"back up to {tail(bad_l):.2f}; with zero_grad: grad norm {tail(good_n):.2f}, late loss {tail(good_l):.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
