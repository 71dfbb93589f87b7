"""Train the two-tower model, then compare the evaluation MSE as written with the shape-matched one."""

import importlib.util
import warnings
from pathlib import Path

import torch
import torch.nn.functional as F

_spec = importlib.util.spec_from_file_location("x_argo_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _check() -> str:
    tg = _t.make_target()
    model = tg["model"]
    opt = tg["optimizer"](model.parameters())
    g = torch.Generator().manual_seed(1)
    evals = []
    for step in range(400):
        x, y = _t.make_batch(g)
        loss = tg["loss_fn"](model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step in (0, 399):
            xe, ye = _t.make_batch(torch.Generator().manual_seed(3), n=256)
            with torch.no_grad(), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                pe = model(xe)
                evals.append((_t.eval_mse(pe, ye), F.mse_loss(pe.squeeze(-1), ye).item(), ye.var().item()))
    (bug0, ok0, _), (bug1, ok1, var) = evals
    assert ok1 < 0.3 * ok0 and ok1 < 0.3 * var, (ok0, ok1, var)
    assert bug1 > 1.5 * var and bug1 > 5 * ok1, (bug1, ok1, var)
    return (f"eval MSE as written {bug0:.2f} -> {bug1:.2f} (label variance {var:.2f}, train loss {loss.item():.3f}); "
            f"shape-matched eval MSE {ok0:.2f} -> {ok1:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
