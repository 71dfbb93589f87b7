import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("z_sru_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _grad_norm(depth):
    tg = _t.make_target(depth)
    m, (x, y) = tg["model"], tg["batch"]
    tg["loss_fn"](m(x), y).backward()
    return torch.nn.utils.clip_grad_norm_(m.parameters(), float("inf")).item(), m


def _train(depth, steps=15):
    tg = _t.make_target(depth)
    m, (x, y) = tg["model"], tg["batch"]
    opt = tg["optimizer"](m.parameters())
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = tg["loss_fn"](m(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def _check() -> str:
    g6, _ = _grad_norm(6)
    g2, _ = _grad_norm(2)
    l6 = _train(6)
    l2 = _train(2)
    assert g6 > 3 * g2, (g6, g2)
    assert max(l6) > 1.25 * l6[0] and max(l2) <= l2[0] * 1.01 and l2[-1] < 0.5 * l6[-1], (l6, l2)
    return (f"6-layer LSTM, SGD lr 20, no clipping: first-step grad norm {g6:.1f} (2 layers: {g2:.1f}); loss "
            f"{l6[0]:.2f} spikes to {max(l6):.2f}, ends {l6[-1]:.2f}; 2 layers {l2[0]:.2f} -> {l2[-1]:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
