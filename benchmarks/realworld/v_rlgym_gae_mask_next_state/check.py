import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_v_rlgym_gae_mask_next_state_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, (obs, targets) = t["model"], t["batch"]
    opt = t["optimizer"](model.parameters())
    for _ in range(400):
        opt.zero_grad()
        loss = t["loss_fn"](model(obs), targets)
        loss.backward()
        opt.step()
    with torch.no_grad():
        v = model(torch.eye(mod.EP_LEN)).squeeze(-1)
    want = [mod.GAMMA ** (mod.EP_LEN - 1 - i) for i in range(mod.EP_LEN)]
    assert abs(v[-1].item() - 1.0) < 0.15 and v[:-1].abs().max().item() < 0.15, v.tolist()
    return (
        "learned values per step " + ", ".join(f"{x:.2f}" for x in v.tolist())
        + " vs the discounted goal reward " + ", ".join(f"{x:.2f}" for x in want)
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
