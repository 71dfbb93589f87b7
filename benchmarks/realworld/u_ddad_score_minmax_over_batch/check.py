"""Score the same test images in batches of 1, 8 and 64 with the batch-normalised anomaly score."""
import importlib.util
import os

import torch

_HERE = os.path.dirname(os.path.abspath(__file__))


def _load():
    spec = importlib.util.spec_from_file_location("u_ddad_target", os.path.join(_HERE, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, (x, y) = t["model"], t["batch"]
    res = {}
    for bs in (1, 8, 64):
        s = torch.cat([mod.anomaly_scores(model, x[i:i + bs]) for i in range(0, len(x), bs)])
        res[bs] = s
    acc = {bs: mod.accuracy_at_half(torch.nan_to_num(s, nan=0.0), y) for bs, s in res.items()}
    d = (res[8] - res[64]).abs().max().item()
    assert torch.isnan(res[1]).all(), res[1][:4]
    assert d > 0.2 and abs(acc[8] - acc[64]) > 0.05, (d, acc)
    return (f"same 64 test images: accuracy at threshold 0.5 = {acc[8]:.3f} (batch 8) vs {acc[64]:.3f} (batch 64), "
            f"per-image score moves by up to {d:.2f}; batch size 1 gives NaN scores for every image")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
