"""Self-contained: small LSTM language model on a synthetic Markov-chain corpus, Adam at lr=1.0 vs lr=1e-3."""
import torch
import torch.nn as nn


class LM(nn.Module):
    def __init__(self, v=24, d=32):
        super().__init__()
        self.emb = nn.Embedding(v, d)
        self.rnn = nn.LSTM(d, d, batch_first=True)
        self.out = nn.Linear(d, v)

    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.out(h)


def _train(lr):
    torch.manual_seed(0)
    v = 24
    g = torch.Generator().manual_seed(1)
    trans = torch.softmax(3.0 * torch.randn(v, v, generator=g), dim=1)  # peaked first-order Markov chain
    toks = [0]
    for _ in range(3000):
        toks.append(torch.multinomial(trans[toks[-1]], 1, generator=g).item())
    corpus = torch.tensor(toks)
    model = LM(v)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    lossf = nn.CrossEntropyLoss()
    losses = []
    for step in range(100):
        starts = torch.randint(0, corpus.numel() - 21, (16,), generator=g)
        seq = torch.stack([corpus[s : s + 21] for s in starts])
        x, y = seq[:, :-1], seq[:, 1:]
        loss = lossf(model(x).reshape(-1, v), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        opt.step()
        losses.append(loss.item())
    return losses[0], sum(losses[-10:]) / 10


def _check() -> str:
    b0, b_end = _train(1.0)
    g0, g_end = _train(1e-3)
    assert b_end > 2.0 and b_end > 0.8 * b0, (b0, b_end)
    assert g_end < g0 - 0.6 and g_end < b_end - 0.3, (g0, g_end, b_end)
    return f"Adam lr=1.0: loss {b0:.2f} -> {b_end:.2f} after 100 steps; lr=1e-3: {g0:.2f} -> {g_end:.2f}"


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
