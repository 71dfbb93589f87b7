import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_j_summarizer_hidden_carry_b_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    torch.manual_seed(0)
    model = mod.Encoder()
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(4):
        for i in range(0, len(x), 32):
            opt.zero_grad()
            t["loss_fn"](model(x[i : i + 32]), y[i : i + 32]).backward()
            opt.step()
    vx, _ = t["val_data"]
    with torch.no_grad():
        model.hidden = None
        first = model(vx[:32])
        again = model(vx[:32])  # same articles, now after another batch
    drift = (first - again).abs().max().item()
    assert drift > 1e-2, drift
    return f"same 32 articles scored twice in a row: outputs differ by up to {drift:.3f}"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
