import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("tc_rollgae_padding_value_bootstrap_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    mask = torch.tensor([[1.0, 1.0, 0.0]])
    rewards = torch.tensor([[0.0, 1.0, 0.0]])
    values = torch.tensor([[0.0, 0.0, 100.0]])
    adv, _ = mod.compute_gae(rewards, values, mask, gamma=1.0, lam=0.95)
    # honest answer: the response ends at t=1, so A = [0.95, 1.0, 0.0]
    last = adv[0, 1].item()
    # the same leak in the real target: change only padding-position values, valid returns move
    t = mod.make_target()
    h, (r, m) = t["batch"]
    with torch.no_grad():
        v = t["model"](h)
    v2 = v.clone()
    v2[m == 0] += 50.0
    _, ret1 = mod.compute_gae(r, v, m)
    _, ret2 = mod.compute_gae(r, v2, m)
    shift = ((ret2 - ret1) * m).abs().max().item()
    assert abs(last - 1.0) > 2.0, last
    assert shift > 1.0, shift
    return (f"advantage of the last valid token is {last:.2f} (expected 1.00) when the padding value is 100; "
            f"raising values only on padding moves valid-token returns by {shift:.1f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
