"""Same model and optimiser on raw vs standardised features: the raw run ends with a much higher validation loss."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("r_particleflow_target", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def _train(t, standardize):
    xtr, ytr = t["train_data"]
    xva, yva = t["val_data"]
    if standardize:
        mu, sd = xtr.mean(0), xtr.std(0)
        xtr, xva = (xtr - mu) / sd, (xva - mu) / sd
    torch.manual_seed(0)
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    for _ in range(20):
        for i in range(0, 1024, 128):
            loss = t["loss_fn"](model(xtr[i:i + 128]), ytr[i:i + 128])
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        return t["loss_fn"](model(xva), yva).item(), xtr.std(0)


def _check() -> str:
    mod = _load()
    raw, sd = _train(mod.make_target(), False)
    std, _ = _train(mod.make_target(), True)
    ratio = (sd.max() / sd.min()).item()
    assert ratio > 1000, ratio
    assert raw > 2.5 * std, (raw, std)
    return (f"feature std spans a factor {ratio:.0f}; val MSE after 20 epochs: raw inputs {raw:.3f}, "
            f"standardised inputs {std:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
