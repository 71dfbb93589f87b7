import torch
import torch.nn as nn
import torch.nn.functional as F

C, D = 20, 32


def _data(n, seed):
    """A query vector and 20 candidate vectors; the answer is the candidate most aligned with a hidden map of the query."""
    w = torch.randn(D, D, generator=torch.Generator().manual_seed(0)) / D**0.5
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(n, D, generator=g)
    cands = torch.randn(n, C, D, generator=g)
    y = (cands @ (q @ w).unsqueeze(2)).squeeze(2).argmax(1)
    return q, cands, y


class CandidateScorer(nn.Module):
    def __init__(self, extra_softmax):
        super().__init__()
        self.q = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, D))
        self.extra_softmax = extra_softmax

    def forward(self, q, cands):
        scores = (cands @ self.q(q).unsqueeze(2)).squeeze(2)  # (batch, candidates)
        return F.softmax(scores, dim=-1) if self.extra_softmax else scores


def _run(extra_softmax):
    torch.manual_seed(0)
    model = CandidateScorer(extra_softmax)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    q, c, y = _data(2048, 1)
    for _ in range(4):
        for i in range(0, len(q), 32):
            opt.zero_grad()
            F.cross_entropy(model(q[i : i + 32], c[i : i + 32]), y[i : i + 32]).backward()
            opt.step()
    vq, vc, vy = _data(1024, 2)
    with torch.no_grad():
        out = model(vq, vc)
        return F.cross_entropy(out, vy).item(), (out.argmax(1) == vy).float().mean().item()


def _check() -> str:
    (lb, ab), (lo, ao) = _run(True), _run(False)
    assert lb > 2.08 and lo < lb - 1.0 and ao > ab + 0.05, (lb, ab, lo, ao)
    return f"4 epochs: val loss {lb:.2f}, accuracy {ab:.2f} with softmax in the model; {lo:.2f}, {ao:.2f} on raw scores"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
