"""Self-contained: an encoder plus a separate classification head, trained with an optimizer that only holds the
encoder's parameters. The head gets gradients but never changes, and the training loss stays above what the same
setup reaches with the head included."""

import torch
from torch import nn
import torch.nn.functional as F


def _run(include_head: bool):
    torch.manual_seed(0)
    encoder = nn.Sequential(nn.Linear(20, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh())
    clf_head = nn.Linear(32, 2)
    params = list(encoder.parameters()) + (list(clf_head.parameters()) if include_head else [])
    opt = torch.optim.Adam(params, lr=1e-3)
    g = torch.Generator().manual_seed(1)
    x = torch.randn(512, 20, generator=g)
    y = (x[:, :5].sum(1) > 0).long()
    w0 = clf_head.weight.detach().clone()
    for _ in range(150):
        loss = F.cross_entropy(clf_head(encoder(x)), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    head_grad = clf_head.weight.grad.norm().item()
    moved = (clf_head.weight - w0).abs().max().item()
    return loss.item(), moved, head_grad


def _check() -> str:
    bad_loss, bad_moved, bad_grad = _run(False)
    ok_loss, ok_moved, _ = _run(True)
    assert bad_moved == 0.0 and bad_grad > 0 and ok_moved > 1e-2, (bad_moved, bad_grad, ok_moved)
    assert bad_loss > 1.2 * ok_loss, (bad_loss, ok_loss)
    return (
        f"head left out of the optimizer: head moved {bad_moved:.1e} (accumulated grad norm {bad_grad:.1f}), loss {bad_loss:.3f}; "
        f"head included: loss {ok_loss:.3f}"
    )


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
