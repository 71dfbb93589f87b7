"""Train the deep coupling network with and without gradient-norm clipping; unclipped, gradients blow up to NaN."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("t_revnet_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, clip):
    t = mod.make_target()
    model = t["model"]
    x, y = t["train_data"]
    opt = t["optimizer"](model.parameters())
    losses, norms = [], []
    for s in range(40):
        i = (s * 128) % 512
        xb, yb = x[i:i + 128], y[i:i + 128]
        opt.zero_grad()
        loss = t["loss_fn"](model(xb), yb)
        losses.append(loss.item())
        if not torch.isfinite(loss):
            break
        loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), clip if clip else float("inf"))
        norms.append(gn.item())
        opt.step()
    with torch.no_grad():
        acc = (model(x).argmax(1) == y).float().mean().item()
    return losses, norms, acc


def _check() -> str:
    mod = _load()
    bad_l, bad_n, bad_acc = _train(mod, None)
    ok_l, ok_n, ok_acc = _train(mod, 0.25)
    finite_n = [n for n in bad_n if n == n and n != float("inf")]
    assert min(bad_l[:5]) < bad_l[0], bad_l[:5]
    assert not torch.isfinite(torch.tensor(bad_l[-1])), bad_l[-5:]
    assert bad_acc < 0.2, bad_acc
    assert max(finite_n) > 20 * finite_n[0] or len(finite_n) < len(bad_n), bad_n
    assert all(torch.isfinite(torch.tensor(ok_l))) and ok_acc > 0.9, (ok_l[-3:], ok_acc)
    return (
        f"no clipping: loss {bad_l[0]:.2f} -> {min(bad_l[:5]):.2f} then {bad_l[-1]} at step {len(bad_l) - 1}, "
        f"grad norm {bad_n[0]:.1f} -> {bad_n[-1]:.3g}, acc {bad_acc:.2f}; clip 0.25: loss {ok_l[-1]:.2g}, acc {ok_acc:.2f}"
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
