"""Self-contained: attention distillation where the AT terms are detached before backward (NAD issue #8)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self, w):
        super().__init__()
        self.c1 = nn.Conv2d(3, w, 3, padding=1)
        self.c2 = nn.Conv2d(w, w, 3, padding=1, stride=2)
        self.c3 = nn.Conv2d(w, w, 3, padding=1, stride=2)
        self.fc = nn.Linear(w, 4)

    def forward(self, x):
        a1 = F.relu(self.c1(x))
        a2 = F.relu(self.c2(a1))
        a3 = F.relu(self.c3(a2))
        return a1, a2, a3, self.fc(a3.mean((2, 3)))


def at_map(a):
    return F.normalize(a.pow(2).mean(1).flatten(1), dim=1)


def at_loss(s, t):
    return (at_map(s) - at_map(t)).pow(2).mean()


def _train(beta, detach):
    torch.manual_seed(0)
    teacher, student = Net(8), Net(8)
    for p in teacher.parameters():
        p.requires_grad_(False)
    g = torch.Generator().manual_seed(1)
    x = torch.randn(64, 3, 8, 8, generator=g)
    y = torch.randint(0, 4, (64,), generator=g)
    opt = torch.optim.SGD(student.parameters(), lr=0.01, momentum=0.9)
    ats = []
    for _ in range(40):
        a1s, a2s, a3s, out = student(x)
        a1t, a2t, a3t, _ = teacher(x)
        terms = [at_loss(a1s, a1t), at_loss(a2s, a2t), at_loss(a3s, a3t)]
        if detach:
            terms = [t.detach() for t in terms]
        at = sum(terms) * beta
        loss = F.cross_entropy(out, y) + at
        ats.append(float(sum(t.detach() for t in terms)))
        opt.zero_grad()
        loss.backward()
        opt.step()
    return ats, torch.cat([p.detach().flatten() for p in student.parameters()])


def _check() -> str:
    at_b1, w_b1 = _train(50.0, detach=True)
    at_b2, w_b2 = _train(5000.0, detach=True)
    at_fix, _ = _train(50.0, detach=False)
    same = torch.allclose(w_b1, w_b2)
    assert same, "beta changed the trained weights"
    assert at_b1[-1] > 0.7 * at_b1[0], (at_b1[0], at_b1[-1])
    assert at_fix[-1] < 0.5 * at_fix[0], (at_fix[0], at_fix[-1])
    return (
        f"detached AT term: beta 50 vs 5000 give identical weights; AT loss {at_b1[0]:.4f} -> {at_b1[-1]:.4f} "
        f"(with the graph kept: {at_fix[0]:.4f} -> {at_fix[-1]:.4f})"
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
