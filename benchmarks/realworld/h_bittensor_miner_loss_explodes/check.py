import importlib.util
import math
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_h_bittensor_miner_loss_explodes_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(clip):
    t = _load().make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    losses = []
    for _ in range(6):
        for i in range(0, len(x), 32):
            loss = F.cross_entropy(model(x[i : i + 32]), y[i : i + 32])
            opt.zero_grad()
            loss.backward()
            if clip:
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            losses.append(loss.item())
    return losses


def _check() -> str:
    raw, clipped = _run(False), _run(True)
    peak = max((v for v in raw if math.isfinite(v)), default=float("inf"))
    blown = (not all(math.isfinite(v) for v in raw)) or peak > 1e3
    assert 5.5 < raw[0] < 7.5 and blown, (raw[0], peak)
    assert all(math.isfinite(v) for v in clipped) and max(clipped) < 30, max(clipped)
    return f"loss starts at {raw[0]:.2f} and blows up (peak {peak:.3g} or non-finite); with grad clipping it stays <= {max(clipped):.2f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
