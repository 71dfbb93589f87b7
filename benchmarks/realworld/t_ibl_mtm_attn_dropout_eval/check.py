"""Evaluate the same model twice in eval mode under no_grad: the validation loss changes between passes."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("t_ibl_mtm_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, (x, y) = t["model"], t["batch"]
    opt = t["optimizer"](model.parameters())
    model.train()
    for _ in range(30):
        opt.zero_grad()
        loss = t["loss_fn"](model(x), y)
        loss.backward()
        opt.step()
    xv, yv = t["val_data"]
    torch.manual_seed(1)
    losses = [t["loss_fn"](t["eval_fn"](model, xv), yv).item() for _ in range(5)]
    spread = max(losses) - min(losses)
    assert not model.training
    assert spread > 5e-5, losses
    out_diff = (t["eval_fn"](model, xv) - t["eval_fn"](model, xv)).abs().max().item()
    assert out_diff > 1e-2, out_diff
    # with the attention dropout off in eval, passes agree exactly
    model.attn.attn_dropout = 0.0
    fixed = [t["loss_fn"](t["eval_fn"](model, xv), yv).item() for _ in range(3)]
    assert max(fixed) - min(fixed) < 1e-6, fixed
    return (
        f"model.eval()+no_grad: 5 val passes gave loss {min(losses):.4f}..{max(losses):.4f} "
        f"(spread {spread:.5f}), same-input outputs differ by up to {out_diff:.3f}; with attention dropout 0 they agree ({fixed[0]:.4f})"
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
