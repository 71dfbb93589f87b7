import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_v_hgru4rec_new_session_old_state_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    (items, start, h_prev, h_user), _ = t["batch"]
    start = torch.ones_like(start)  # every slot begins a new session
    g = torch.Generator().manual_seed(3)
    other_prev = torch.randn(h_prev.shape, generator=g) * 2
    with torch.no_grad():
        a = model(items, start, h_prev, h_user)
        b = model(items, start, other_prev, h_user)
    diff = (a - b).abs().max().item()
    top_changed = (a.topk(5).indices.sort().values != b.topk(5).indices.sort().values).any(-1).float().mean().item()
    assert diff > 0.05 and top_changed > 0.2, (diff, top_changed)
    return (
        f"first event of a fresh session: scores move by up to {diff:.3f} when only the previous session's state in "
        f"the slot changes; top-5 differs for {top_changed:.0%} of slots"
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
