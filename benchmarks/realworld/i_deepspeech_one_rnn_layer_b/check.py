import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_i_deepspeech_one_rnn_layer_b_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit(t, model, epochs=8):
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(epochs):
        for i in range(0, len(x), 32):
            opt.zero_grad()
            t["loss_fn"](model(x[i : i + 32]), y[i : i + 32]).backward()
            opt.step()
    vx, vy = t["val_data"]
    with torch.no_grad():
        return t["metric_fn"](model(x), y), t["metric_fn"](model(vx), vy)


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    tr, va = _fit(t, t["model"])
    torch.manual_seed(0)
    tr_big, va_big = _fit(t, mod.SpeechNet(hidden=48, layers=2))
    assert abs(tr - va) < 0.05 and tr < 0.6 and va_big > va + 0.15, (tr, va, tr_big, va_big)
    return (
        f"frame accuracy train {tr:.2f} / val {va:.2f} with one 4-unit GRU layer; "
        f"train {tr_big:.2f} / val {va_big:.2f} with two 48-unit layers"
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
