"""Train the target learner: once evals of decisive positions grow large enough, q rounds to exactly 1.0 (or 0.0) in
float32, log(1 - q) is -inf and the loss and weights turn NaN. Clamping q to [eps, 1 - eps] keeps training finite."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("x_nnue_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _safe_loss(eval_cp, teacher_p, eps=1e-7):
    q = torch.sigmoid(eval_cp / _t.SCALE).clamp(eps, 1 - eps)
    return -(teacher_p * torch.log(q) + (1 - teacher_p) * torch.log(1 - q)).mean()


def _train(safe, steps=400):
    tg = _t.make_target()
    model = tg["model"]
    opt = tg["optimizer"](model.parameters())
    loss_fn = _safe_loss if safe else tg["loss_fn"]
    g = torch.Generator().manual_seed(1)
    losses, first_bad = [], None
    for step in range(steps):
        x, p = _t.make_batch(g)
        loss = loss_fn(model(x), p)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        if first_bad is None and not torch.isfinite(loss):
            first_bad = step
    weights_ok = all(torch.isfinite(p).all() for p in model.parameters())
    return losses, first_bad, weights_ok


def _check() -> str:
    losses, first_bad, w_ok = _train(False)
    safe, bad_safe, w_safe = _train(True)
    assert first_bad is not None and first_bad > 5, first_bad
    assert torch.isfinite(torch.tensor(losses[:first_bad])).all()
    assert not w_ok, "weights should have gone NaN"
    assert bad_safe is None and w_safe, bad_safe
    return (f"bare log: loss finite for {first_bad} steps ({losses[0]:.3f} -> {losses[first_bad - 1]:.3f}), then "
            f"{losses[first_bad]} at step {first_bad}, weights NaN at the end; clamped q: loss {safe[-1]:.3f} after "
            f"{len(safe)} steps, all finite")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
