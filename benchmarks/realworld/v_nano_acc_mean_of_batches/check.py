import importlib.util
import pathlib

import torch
from torch.utils.data import DataLoader, TensorDataset

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_v_nano_acc_mean_of_batches_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    xtr, ytr = t["train_data"]
    opt = t["optimizer"](model.parameters())
    for step in range(150):
        i = (step * 64) % len(xtr)
        opt.zero_grad()
        t["loss_fn"](model(xtr[i : i + 64]), ytr[i : i + 64]).backward()
        opt.step()
    ds = t["val_data"].dataset
    xva, yva = ds.tensors
    with torch.no_grad():
        model.eval()
        true_acc = (model(xva).argmax(-1) == yva).float().mean().item()
    reported = {bs: mod.evaluate(model, DataLoader(TensorDataset(xva, yva), batch_size=bs)) for bs in (32, 64, 70)}
    spread = max(reported.values()) - min(reported.values())
    assert abs(reported[70] - true_acc) < 1e-6 and spread > 0.03 and abs(reported[32] - true_acc) > 0.01, (true_acc, reported)
    return (
        f"true val accuracy {true_acc:.3f}; reported {reported[32]:.3f} with batch_size=32 and {reported[64]:.3f} with "
        f"batch_size=64 (70 samples, last batch {70 % 32} / {70 % 64})"
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
