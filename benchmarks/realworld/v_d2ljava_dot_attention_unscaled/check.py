"""Self-contained: dot-product attention over 256-dim keys/queries, with and without 1/sqrt(d) scaling."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

D, N_KV, N_CLS = 256, 10, 10


class Retriever(nn.Module):
    def __init__(self, scaled):
        super().__init__()
        self.scaled = scaled
        self.wq = nn.Linear(D, D, bias=False)
        self.wk = nn.Linear(D, D, bias=False)
        self.wv = nn.Linear(D, D, bias=False)
        for lin in (self.wq, self.wk, self.wv):
            nn.init.normal_(lin.weight, std=1 / math.sqrt(D))
        self.out = nn.Linear(D, N_CLS)

    def forward(self, query, items):
        q, k, v = self.wq(query), self.wk(items), self.wv(items)
        scores = torch.bmm(q, k.transpose(1, 2))
        if self.scaled:
            scores = scores / math.sqrt(D)
        self.attention_weights = torch.softmax(scores, dim=-1)
        return self.out(torch.bmm(self.attention_weights, v)).squeeze(1)


def _data(g, n=32):
    items = torch.randn(n, N_KV, D, generator=g)
    labels = torch.randint(0, N_CLS, (n, N_KV), generator=g)
    items[:, :, :N_CLS] += 3 * F.one_hot(labels, N_CLS)  # each item carries its class
    pick = torch.randint(0, N_KV, (n,), generator=g)
    query = items[torch.arange(n), pick].unsqueeze(1) + 0.5 * torch.randn(n, 1, D, generator=g)
    return query, items, labels[torch.arange(n), pick]


def _run(scaled):
    torch.manual_seed(0)
    model = Retriever(scaled)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    g = torch.Generator().manual_seed(1)
    q, it, y = _data(g)
    model(q, it)
    peak = model.attention_weights.max(-1).values.mean().item()
    losses = []
    for step in range(80):
        q, it, y = _data(g)
        opt.zero_grad()
        loss = F.cross_entropy(model(q, it), y)
        loss.backward()
        if step == 0:
            gq = model.wq.weight.grad.norm().item()
        opt.step()
        losses.append(loss.item())
    return peak, gq, sum(losses[-20:]) / 20


def _check() -> str:
    peak_u, gq_u, loss_u = _run(False)
    peak_s, gq_s, loss_s = _run(True)
    assert peak_u > 0.9 and peak_s < 0.6, (peak_u, peak_s)
    assert loss_u > loss_s + 0.3, (loss_u, loss_s)
    return (
        f"unscaled: mean max attention weight {peak_u:.3f} at init, |grad W_q| {gq_u:.2e}, loss after 80 steps {loss_u:.2f}; "
        f"scaled by 1/sqrt(d): {peak_s:.3f}, {gq_s:.2e}, {loss_s:.2f}"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
