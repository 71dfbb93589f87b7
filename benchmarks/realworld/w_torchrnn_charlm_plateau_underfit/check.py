"""Self-contained: a character model too small for a structured corpus plateaus at a high training loss, while the
same code with more capacity goes far lower; nothing is broken."""
import torch
import torch.nn as nn


def _corpus(n=6000):
    g = torch.Generator().manual_seed(0)
    words = ["alpha ", "beta ", "gamma ", "delta ", "epsilon ", "zeta ", "eta ", "theta "]
    text = ""
    while len(text) < n:
        i = int(torch.randint(0, 8, (1,), generator=g))
        text += words[i] + words[(i * 3 + 1) % 8] + words[(i * 5 + 2) % 8].strip() + ".\n"
    chars = sorted(set(text))
    return torch.tensor([chars.index(c) for c in text[:n]]), len(chars)


class CharLM(nn.Module):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.emb = nn.Embedding(vocab, 8)
        self.rnn = nn.LSTM(8, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, x):
        return self.out(self.rnn(self.emb(x))[0])


def _train(hidden, data, vocab, steps=250):
    torch.manual_seed(0)
    m = CharLM(vocab, hidden)
    opt = torch.optim.Adam(m.parameters(), lr=1e-2)
    g = torch.Generator().manual_seed(1)
    hist = []
    for _ in range(steps):
        idx = torch.randint(0, len(data) - 33, (32,), generator=g)
        x = torch.stack([data[i:i + 32] for i in idx])
        y = torch.stack([data[i + 1:i + 33] for i in idx])
        opt.zero_grad()
        loss = nn.functional.cross_entropy(m(x).flatten(0, 1), y.flatten())
        loss.backward()
        opt.step()
        hist.append(loss.item())
    return sum(hist[-25:]) / 25, sum(hist[-75:-50]) / 25


def _check() -> str:
    data, vocab = _corpus()
    small_end, small_before = _train(2, data, vocab)
    big_end, _ = _train(64, data, vocab)
    assert abs(small_end - small_before) < 0.1 and small_end > 1.0, (small_before, small_end)
    assert big_end < small_end - 0.5, (big_end, small_end)
    return (f"hidden=2: train loss flat at {small_end:.2f} (was {small_before:.2f} 50 steps earlier); "
            f"hidden=64, same code and data: {big_end:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
