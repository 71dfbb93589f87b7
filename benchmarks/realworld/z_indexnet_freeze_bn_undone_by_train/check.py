import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("z_indexnet_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _run(keep):
    tg = _t.make_target(keep)
    m = tg["model"]
    bn = m.enc[1]
    mode0 = bn.training
    rm0 = bn.running_mean.clone()
    opt = tg["optimizer"](m.parameters())
    for _ in range(20):
        tg["train_step"](m, tg["batch"], opt, tg["loss_fn"])
    return mode0, bn.training, (bn.running_mean - rm0).abs().max().item()


def _check() -> str:
    b0, b1, db = _run(False)
    g0, g1, dg = _run(True)
    assert not b0 and b1 and db > 0.1, (b0, b1, db)
    assert not g1 and dg == 0.0, (g1, dg)
    return (f"freeze_bn at init: BN training={b0} after freeze, {b1} after net.train(), running_mean moved {db:.3f} in "
            f"20 steps; re-freezing inside train(): BN training={g1}, running_mean moved {dg}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
