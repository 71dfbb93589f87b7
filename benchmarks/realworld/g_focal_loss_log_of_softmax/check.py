import importlib.util
import math
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_g_focal_loss_log_of_softmax_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _stable(logits, target, gamma=2.0):
    logp_t = F.log_softmax(logits, dim=1).gather(1, target.unsqueeze(1)).squeeze(1)
    return (-((1 - logp_t.exp()) ** gamma) * logp_t).mean()


def _train(mod, loss_fn):
    torch.manual_seed(0)
    t = mod.make_target()
    model, loss_fn = t["model"], loss_fn or t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for step in range(400):
        i = (step * 64) % len(x)
        opt.zero_grad()
        loss = loss_fn(model(x[i : i + 64]), y[i : i + 64])
        if not math.isfinite(loss.item()):
            return step, loss.item()
        loss.backward()
        opt.step()
    return None, loss.item()


def _check() -> str:
    mod = _load()
    bad_step, bad_loss = _train(mod, None)
    ok_step, ok_loss = _train(mod, _stable)
    assert bad_step is not None and ok_step is None, (bad_step, ok_step)
    return f"focal loss became {bad_loss} at step {bad_step}; the log_softmax form stays finite for 400 steps ({ok_loss:.3f})"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
