import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_d_popest_relu_scale_net_all_zero_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    losses, grad_norms = [], []
    for _ in range(200):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        grad_norms.append(sum(p.grad.norm() ** 2 for p in model.parameters()).sqrt().item())
        opt.step()
        losses.append(loss.item())
    with torch.no_grad():
        zero_frac = (model(x) == 0).float().mean().item()
    assert zero_frac == 1.0 and max(grad_norms) == 0.0 and losses[0] == losses[-1], (zero_frac, grad_norms[:3])
    return f"200 steps: every prediction is 0, gradient norm 0.0 at each step, loss stuck at {losses[-1]:.3f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
