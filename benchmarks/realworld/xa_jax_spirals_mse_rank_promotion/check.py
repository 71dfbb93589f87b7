import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("xa_jax_spirals_mse_rank_promotion_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    x, y = t["batch"]
    opt = t["optimizer"](model.parameters())
    for _ in range(300):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
    with torch.no_grad():
        preds = model(x)
        diff_shape = tuple((preds - y).shape)
        final = loss_fn(preds, y).item()
        spread = preds.std().item()
        acc = mod.accuracy(preds, y)
    assert diff_shape == (len(y), len(y)), diff_shape
    assert final > 0.24 and spread < 0.05, (final, spread)
    return (f"(preds - targets) has shape {diff_shape}; after 300 Adam steps loss {final:.4f}, "
            f"prediction std {spread:.4f}, train accuracy {acc:.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
