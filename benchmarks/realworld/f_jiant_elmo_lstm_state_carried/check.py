import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_f_jiant_elmo_lstm_state_carried_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _evaluate(model, t):
    vx, vy = t["val_data"]
    model.eval()
    with torch.no_grad():
        outs = torch.cat([model(vx[i : i + 32]) for i in range(0, len(vx), 32)])
    return outs, t["metric_fn"](outs, vy)


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(3):
        for i in range(0, len(x), 32):
            loss = t["loss_fn"](model(x[i : i + 32]), y[i : i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
    out1, acc1 = _evaluate(model, t)
    out2, acc2 = _evaluate(model, t)
    gap = (out1 - out2).abs().max().item()
    assert gap > 1e-2, gap
    model.encoder._states = None
    first = model(t["val_data"][0][:32])
    model.encoder._states = None
    again = model(t["val_data"][0][:32])
    assert torch.allclose(first, again), "with the states reset the outputs repeat"
    return f"two identical eval passes: accuracy {acc1:.3f} vs {acc2:.3f}, logits differ by up to {gap:.3f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
