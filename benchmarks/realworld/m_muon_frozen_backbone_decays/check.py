"""The frozen backbone (requires_grad=False, never gets a .grad from backward) shrinks step after step; AdamW with the
same weight decay leaves it untouched."""

import importlib.util
from pathlib import Path

import torch


def _target():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("m_muon_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(t, make_opt, steps=60):
    model = t["model"]
    frozen = [p.detach().clone() for p in model.backbone.parameters()]
    opt = make_opt(model.parameters())
    for i in range(steps):
        x, y = t["train_data"][i % len(t["train_data"])]
        opt.zero_grad(set_to_none=True)
        loss = t["loss_fn"](model(x), y)
        loss.backward()
        assert all(p.grad is None for p in model.backbone.parameters())  # frozen: backward gives no grad
        opt.step()
    w0, w1 = frozen[0], next(model.backbone.parameters())
    return (w1.norm() / w0.norm()).item(), max((a - b).abs().max().item() for a, b in
                                              zip(frozen, model.backbone.parameters())), loss.item()


def _check() -> str:
    mod = _target()
    t = mod.make_target()
    ratio, moved, loss = _run(t, t["optimizer"])
    assert ratio < 0.9 and moved > 1e-3, (ratio, moved)
    t2 = mod.make_target()
    ratio_ok, moved_ok, loss_ok = _run(t2, lambda p: torch.optim.AdamW([q for q in p if q.requires_grad],
                                                                        lr=1e-2, weight_decay=0.1))
    assert moved_ok == 0.0, moved_ok
    return (f"after 60 steps with the optimizer (wd 0.1): frozen backbone weight norm x{ratio:.3f}, max change "
            f"{moved:.3f}; AdamW on trainable params only: backbone unchanged (x{ratio_ok:.3f})")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
