"""Train the target as written ((N,1) vs (N,)) and with the target as a column: only the latter learns."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("q_lasagne_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, reshape, steps=300):
    t = mod.make_target()
    model, (x, y) = t["model"], t["batch"]
    opt = t["optimizer"](model.parameters())
    tgt = y.view(-1, 1) if reshape else y
    for _ in range(steps):
        loss = t["loss_fn"](model(x), tgt)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = model(x).squeeze(1)
    true_mse = ((pred - y) ** 2).mean().item()
    return loss.item(), true_mse, pred.std().item()


def _check() -> str:
    mod = _load()
    bad_loss, bad_mse, bad_std = _train(mod, reshape=False)
    ok_loss, ok_mse, ok_std = _train(mod, reshape=True)
    assert bad_loss > 0.9 and bad_mse > 0.9 and bad_std < 0.2, (bad_loss, bad_mse, bad_std)
    assert ok_mse < 0.3, ok_mse
    return (f"(N,1) vs (N,) loss plateaus at {bad_loss:.3f} (true MSE {bad_mse:.3f}, prediction std {bad_std:.3f}); "
            f"with a column target true MSE {ok_mse:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
