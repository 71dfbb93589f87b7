import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_a_pointnet_logsoftmax_dim0_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model = t["model"].eval()
    (pts,), _ = t["batch"]
    with torch.no_grad():
        single = model(pts[:1])
        batched = model(pts)
    class_mass = batched.exp().sum(1)
    assert single.abs().max().item() < 1e-6, single
    assert (class_mass - 1).abs().max().item() > 0.3, class_mass
    return (f"one cloud alone gets log-prob {single.abs().max().item():.1e} for every class; in a batch the class "
            f"probabilities of a sample sum to {class_mass.min().item():.2f}..{class_mass.max().item():.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny tensors: thread start-up costs more than the math
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
