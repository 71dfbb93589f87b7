import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_c_unet3plus_sigmoid_then_bcelogits_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    x, m = t["batch"]
    opt = t["optimizer"](model.parameters())
    for _ in range(200):
        opt.zero_grad()
        loss = loss_fn(model(x), m)
        loss.backward()
        opt.step()
    with torch.no_grad():
        out = model(x)
    p = torch.sigmoid(out)  # what the loss actually scores
    assert loss.item() > 0.4, loss.item()
    assert float(p.min()) >= 0.5 - 1e-6 and float(p.max()) <= 0.7311, (float(p.min()), float(p.max()))
    fg = float(out[m > 0.5].mean())
    assert fg < 0.5, fg
    return (
        f"one fixed batch, 200 Adam steps: BCE still {loss.item():.3f}; probabilities the loss sees lie in "
        f"[{float(p.min()):.2f}, {float(p.max()):.2f}]; mean mask output on foreground pixels {fg:.2f}"
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
