import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("z_nnr_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _train(norm):
    tg = _t.make_target(norm)
    m, (x, y) = tg["model"], tg["batch"]
    opt = tg["optimizer"](m.parameters())
    for _ in range(120):
        opt.zero_grad()
        loss = tg["loss_fn"](m(x), y)
        loss.backward()
        opt.step()
    xt, yt = _t.make_data(norm, seed=1)
    return loss.item(), (m(xt).argmax(1) == yt).float().mean().item()


def _check() -> str:
    lb, ab = _train(False)
    lg, ag = _train(True)
    assert ag > 0.7 and ab < ag - 0.25, (lb, ab, lg, ag)
    return f"raw features: train loss {lb:.3f}, test accuracy {ab:.2f}; scaled to [0,1]: loss {lg:.3f}, accuracy {ag:.2f}"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
