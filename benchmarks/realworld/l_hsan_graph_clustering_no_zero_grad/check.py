import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_l_hsan_graph_clustering_no_zero_grad_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, clear, steps=400):
    t = mod.make_target()
    model, batch = t["model"], t["batch"]
    opt = t["optimizer"](model.parameters())
    losses = []
    for _ in range(steps):
        if clear:
            opt.zero_grad()
        losses.append(t["train_step"](model, batch, opt, t["loss_fn"]).item())
    return losses, model


def _check() -> str:
    mod = _load()
    lb, mb = _run(mod, clear=False)
    lf, _ = _run(mod, clear=True)
    gnorm = sum(float(p.grad.norm()) for p in mb.parameters())
    assert lf[-1] < 0.6 * lf[0], (lf[0], lf[-1])
    assert lb[-1] > 1.5 * lf[-1] and max(lb[200:]) > lb[0] * 0.9, (lb[0], lb[-1], max(lb[200:]), lf[-1])
    return (
        f"no zero_grad: loss {lb[0]:.4f} -> {lb[-1]:.4f} (max {max(lb[200:]):.4f} over the last 200 steps, .grad norm "
        f"{gnorm:.1f}); with zero_grad each step: {lf[0]:.4f} -> {lf[-1]:.4f}"
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
