import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_c_worldmodels_mdn_logsoftmax_batch_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    z, nxt = t["batch"]
    with torch.no_grad():
        full = float(mod.gmm_loss(model(z), nxt))
        single = (
            sum(float(mod.gmm_loss(model(z[:, i : i + 1]), nxt[:, i : i + 1])) for i in range(z.shape[1])) / z.shape[1]
        )
        w = model(z)[2].exp().sum(-1)  # per (t, b) mixture weights
    assert full - single > 1.0, (full, single)
    assert float((w - 1).abs().max()) > 0.5, w
    return (
        f"same 32 sequences: GMM loss {full:.2f} as one batch, {single:.2f} one sequence at a time; per-sample "
        f"mixture weights sum to {float(w.min()):.2f}..{float(w.max()):.2f} instead of 1"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
