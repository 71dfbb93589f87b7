"""Long instructions + max_words truncation: every label is -100, the loss is exactly 0 and no parameter gets a gradient."""

import importlib.util
from pathlib import Path

import torch


def _target():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("m_llama_recipes_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _target()
    t = mod.make_target()
    model, (x, y), loss_fn = t["model"], t["batch"], t["loss_fn"]
    assert bool((y == mod.IGNORE_INDEX).all()), "some labels survived"
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    before = [p.detach().clone() for p in model.parameters()]
    losses = []
    for xb, yb in t["train_data"]:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        gnorm = sum(p.grad.abs().sum().item() for p in model.parameters() if p.grad is not None)
        losses.append(loss.item())
        assert gnorm == 0.0, gnorm
        opt.step()
    moved = max((a - b).abs().max().item() for a, b in zip(model.parameters(), before))
    assert all(v == 0.0 for v in losses), losses
    # short prompts through the same pipeline do get supervised tokens and a real loss
    xs, ys = mod.make_batch(8, prompt_len=12, seed=7)
    n_sup = int((ys[:, 1:] != mod.IGNORE_INDEX).sum())
    ok = loss_fn(model(xs), ys).item()
    assert n_sup > 0 and ok > 1.0, (n_sup, ok)
    return (f"prompts of 40 tokens, max_words 32: {int(y.numel())} labels all -100, losses {losses}, grad sum 0, "
            f"max weight change {moved:.1e} (weight decay only); 12-token prompts: {n_sup} supervised tokens, loss {ok:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
