"""Self-contained: a binary CTR head with a sigmoid in the model and BCEWithLogitsLoss on top, vs raw logits."""

import torch
from torch import nn


def _run(sigmoid_in_head):
    torch.manual_seed(0)
    n, d = 2048, 16
    g = torch.Generator().manual_seed(1)
    x = torch.randn(n, d, generator=g)
    w = torch.randn(d, generator=g)
    y = (torch.rand(n, generator=g) < torch.sigmoid(1.5 * x @ w / d**0.5 - 1.0)).float()
    layers = [nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 1)]
    if sigmoid_in_head:
        layers.append(nn.Sigmoid())
    model = nn.Sequential(*layers)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    crit = nn.BCEWithLogitsLoss()
    for _ in range(300):
        opt.zero_grad()
        loss = crit(model(x).squeeze(-1), y)
        loss.backward()
        opt.step()
    with torch.no_grad():
        out = model(x).squeeze(-1)
        prob = torch.sigmoid(out)
        true_bce = nn.functional.binary_cross_entropy(out if sigmoid_in_head else prob, y).item()
    return loss.item(), prob.min().item(), prob.max().item(), true_bce


def _check() -> str:
    bad_loss, bad_min, bad_max, bad_bce = _run(True)
    ok_loss, ok_min, ok_max, ok_bce = _run(False)
    assert bad_min >= 0.5 and bad_max <= 0.732, (bad_min, bad_max)
    assert bad_loss > ok_loss + 0.1, (bad_loss, ok_loss)
    assert ok_min < 0.2, ok_min
    return (
        f"sigmoid + BCEWithLogitsLoss: loss plateaus at {bad_loss:.3f}, probabilities squeezed into "
        f"[{bad_min:.2f}, {bad_max:.2f}]; raw logits: loss {ok_loss:.3f}, probabilities [{ok_min:.2f}, {ok_max:.2f}]"
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

