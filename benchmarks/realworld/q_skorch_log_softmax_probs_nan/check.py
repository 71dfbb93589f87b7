"""Full-batch Adam on the target: the log-of-probabilities loss goes NaN, the log_softmax version stays finite."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _target():
    spec = importlib.util.spec_from_file_location("q_skorch_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, stable):
    t = mod.make_target()
    model, (x, y) = t["model"], t["batch"]
    opt = t["optimizer"](model.parameters())
    for step in range(200):
        if stable:
            loss = F.cross_entropy(model.out(F.relu(model.hidden(x))), y)
        else:
            loss = t["loss_fn"](model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if not all(torch.isfinite(p).all() for p in model.parameters()):
            return step, loss.item()
    return None, loss.item()


def _check() -> str:
    mod = _target()
    bad_step, _ = _run(mod, stable=False)
    ok_step, ok_loss = _run(mod, stable=True)
    assert bad_step is not None, "log(softmax) run never produced NaN weights"
    assert ok_step is None and ok_loss < 0.05, (ok_step, ok_loss)
    return (f"NLL on torch.log(softmax probs), Adam lr 0.05: weights NaN after step {bad_step}; "
            f"same model with log_softmax/cross_entropy: finite, loss {ok_loss:.4f} after 200 steps")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
