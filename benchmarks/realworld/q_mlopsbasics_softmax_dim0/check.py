"""Self-contained: a trained 2-class classifier scored one sentence at a time, softmax over dim 0 vs dim 1."""

import torch
from torch import nn


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    V, T, n = 50, 12, 512
    ids = torch.randint(0, V, (n, T), generator=g)
    y = (ids < 10).any(1).long()  # "acceptable" iff a marker token occurs
    model = nn.Sequential(nn.EmbeddingBag(V, 16, mode="max"), nn.Linear(16, 2))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(200):
        loss = nn.functional.cross_entropy(model(ids), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    test = torch.randint(0, V, (20, T), generator=g)
    with torch.no_grad():
        bad = [torch.softmax(model(s.unsqueeze(0)), dim=0)[0] for s in test]
        good = [torch.softmax(model(s.unsqueeze(0)), dim=1)[0] for s in test]
    acc = (model(ids).argmax(1) == y).float().mean().item()
    assert all(torch.allclose(p, torch.ones(2)) for p in bad), bad[0]
    spread = max(p.max().item() for p in good) - min(p.max().item() for p in good)
    assert acc > 0.8 and all(abs(p.sum().item() - 1) < 1e-5 for p in good), acc
    return (f"classifier train acc {acc:.2f}; dim=0 softmax on (1,2) logits scores every label 1.0 for all 20 inputs, "
            f"dim=1 gives varying probabilities (max-prob spread {spread:.2f})")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
