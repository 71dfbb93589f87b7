import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("z_aggcn_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _train(hidden, dropout):
    tg = _t.make_target(hidden, dropout)
    m, (x, y) = tg["model"], tg["batch"]
    opt = tg["optimizer"](m.parameters())
    losses = []
    for _ in range(400):
        m.train()
        opt.zero_grad()
        loss = tg["loss_fn"](m(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    m.eval()
    xv, yv = tg["val_data"]
    acc = lambda a, b: (m(a).argmax(1) == b).float().mean().item()
    return losses, acc(x, y), acc(xv, yv)


def _check() -> str:
    ls, tr_s, va_s = _train(3, 0.3)
    lb, tr_b, va_b = _train(128, 0.0)
    assert all(v == v for v in ls) and ls[-1] < ls[0]
    assert tr_s < 0.85 and abs(tr_s - va_s) < 0.08 and tr_b > tr_s + 0.1, (tr_s, va_s, tr_b, va_b)
    return (f"hidden 3 + dropout: loss {ls[0]:.2f} -> {ls[-1]:.2f}, train acc {tr_s:.2f}, val acc {va_s:.2f} (no gap); "
            f"hidden 128, no dropout: train acc {tr_b:.2f}, val {va_b:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
