"""Self-contained: graph matching (QAP) with a siamese node embedder; row-wise CrossEntropyLoss over the n x n
similarity matrix, fed raw scores vs softmax-ed scores."""

import math

import torch
from torch import nn


class NodeEmbedder(nn.Module):
    """Two rounds of neighbourhood aggregation (a tiny message-passing GNN) on dense adjacency matrices."""

    def __init__(self, f=8, d=32):
        super().__init__()
        self.inp = nn.Linear(f + 1, d)
        self.l1 = nn.Linear(2 * d, d)
        self.l2 = nn.Linear(2 * d, d)

    def forward(self, x, adj):
        h = self.inp(torch.cat([x, adj.sum(-1, keepdim=True)], -1))
        h = torch.relu(self.l1(torch.cat([h, adj @ h / adj.shape[-1] * 4], -1)))
        return self.l2(torch.cat([h, adj @ h / adj.shape[-1] * 4], -1))


def _pairs(bs, n, g):
    a = (torch.rand(bs, n, n, generator=g) < 0.3).float()
    a = torch.triu(a, 1)
    a = a + a.transpose(1, 2)
    perm = torch.stack([torch.randperm(n, generator=g) for _ in range(bs)])
    p = torch.zeros(bs, n, n)
    p.scatter_(2, perm.unsqueeze(-1), 1.0)
    b = p @ a @ p.transpose(1, 2)  # graph 2 = relabelled graph 1; node i of g1 is node perm[i] of g2
    x = torch.randn(bs, n, 8, generator=g)
    y = p @ x + 0.5 * torch.randn(bs, n, 8, generator=g)  # noisy node attributes seen in graph 2
    return (x, a), (y, b), p.transpose(1, 2).argmax(-1)


def _run(softmax_first, steps=80, n=20):
    torch.manual_seed(0)
    emb = NodeEmbedder()
    opt = torch.optim.Adam(emb.parameters(), lr=3e-3)
    crit = nn.CrossEntropyLoss()
    g = torch.Generator().manual_seed(1)
    losses, accs = [], []
    for _ in range(steps):
        g1, g2, perm = _pairs(8, n, g)
        scores = emb(*g1) @ emb(*g2).transpose(1, 2)
        out = torch.softmax(scores, dim=-1) if softmax_first else scores
        loss = crit(out.reshape(-1, n), perm.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        accs.append((scores.argmax(-1) == perm).float().mean().item())
    return losses, accs


def _check() -> str:
    n = 20
    floor = math.log(1 + (n - 1) / math.e)  # best CE reachable when the "logits" are probabilities in [0, 1]
    bad_l, bad_a = _run(True)
    ok_l, ok_a = _run(False)
    bad_end, ok_end = sum(bad_l[-10:]) / 10, sum(ok_l[-10:]) / 10
    assert min(bad_l) >= floor - 1e-4, (min(bad_l), floor)
    assert bad_end > floor + 0.1, (bad_end, floor)
    assert ok_end < floor - 0.5 and ok_l[0] - ok_end > 0.8, (ok_l[0], ok_end)
    assert sum(ok_a[-10:]) > sum(bad_a[-10:]), (ok_a[-10:], bad_a[-10:])
    return (f"softmax before CrossEntropyLoss: loss {bad_l[0]:.3f} -> {bad_end:.3f} (floor {floor:.3f}), "
            f"match acc {sum(bad_a[-10:]) / 10:.2f}; raw scores: loss {ok_l[0]:.3f} -> {ok_end:.3f}, "
            f"match acc {sum(ok_a[-10:]) / 10:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
