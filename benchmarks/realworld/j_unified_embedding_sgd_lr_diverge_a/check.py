import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_j_unified_embedding_sgd_lr_diverge_a_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, scale):
    t = mod.make_target()
    torch.manual_seed(0)
    model = mod.SpeakerNet()
    lr = t["optimizer"]([torch.zeros(1, requires_grad=True)]).param_groups[0]["lr"] * scale
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    x, y = t["train_data"]
    losses = []
    for _ in range(6):
        for i in range(0, len(x), 32):
            opt.zero_grad()
            loss = t["loss_fn"](model(x[i : i + 32]), y[i : i + 32])
            losses.append(loss.item())
            if not math.isfinite(losses[-1]):
                return losses
            loss.backward()
            opt.step()
    return losses


def _fmt(v):
    return f"{v:.2f}" if math.isfinite(v) else str(v)


def _check() -> str:
    mod = _load()
    hi, lo = _train(mod, 1.0), _train(mod, 0.1)
    bad_hi = not math.isfinite(hi[-1]) or hi[-1] > hi[0]
    assert bad_hi and math.isfinite(lo[-1]) and lo[-1] < 0.5 * lo[0], (hi[-1], lo[-1])
    return (
        f"configured lr: loss {_fmt(hi[0])} -> {_fmt(hi[-1])} after {len(hi)} steps; "
        f"lr / 10: {_fmt(lo[0])} -> {_fmt(lo[-1])}"
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
