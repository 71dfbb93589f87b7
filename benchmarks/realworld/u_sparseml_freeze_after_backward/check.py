"""Self-contained: parameters set to requires_grad=False only after the first backward (at optimizer-step time, as a
recipe modifier does) keep moving; frozen before the first forward they stay put."""

import copy

import torch
from torch import nn


def _model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 4))


def _run(freeze_late, steps=30):
    model = _model()
    frozen = list(model[0].parameters())  # "stem"
    if not freeze_late:
        for p in frozen:
            p.requires_grad = False
    start = copy.deepcopy([p.detach().clone() for p in frozen])
    opt = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=1e-4)
    g = torch.Generator().manual_seed(1)
    drift = []
    for step in range(steps):
        x, y = torch.randn(64, 16, generator=g), torch.randint(0, 4, (64,), generator=g)
        opt.zero_grad(set_to_none=False)
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        if freeze_late and step == 0:
            for p in frozen:
                p.requires_grad = False  # the modifier runs here, after autograd already filled .grad
        opt.step()
        drift.append(max((p.detach() - s).abs().max().item() for p, s in zip(frozen, start)))
    return drift, all(not p.requires_grad for p in frozen)


def _check() -> str:
    late, flag_late = _run(True)
    early, flag_early = _run(False)
    assert flag_late and flag_early
    assert late[0] > 1e-3 and late[-1] > 5 * late[0] and max(early) == 0.0, (late[0], late[-1], max(early))
    return (f"requires_grad=False on the stem (set after backward): stem weights moved {late[0]:.3f} after step 1 and "
            f"{late[-1]:.3f} after {len(late)} steps; frozen before training: {max(early):.1f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
