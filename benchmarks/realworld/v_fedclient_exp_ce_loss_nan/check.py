import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_v_fedclient_exp_ce_loss_nan_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    losses = []
    for step in range(60):
        x, y = t["train_data"][step % len(t["train_data"])]
        opt.zero_grad()
        loss = t["loss_fn"](model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
        if not math.isfinite(losses[-1]):
            break
    first_bad = next((i for i, v in enumerate(losses) if not math.isfinite(v)), None)
    assert first_bad is not None and first_bad >= 3, losses[:10]
    finite = [v for v in losses if math.isfinite(v)]
    assert min(finite[:5]) < 50, finite[:5]
    return (
        f"exp(CE/eta) loss {losses[0]:.2f} at step 0, max finite {max(finite):.3g}, "
        f"then {losses[first_bad]} at step {first_bad}"
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
