"""After training steps the encoder weights are unchanged and have no grad; the head moves."""
import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("s_cic_target", p)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def _check() -> str:
    t = _load().make_target()
    model, (x, y) = t["model"], t["batch"]
    opt = t["optimizer"](model.parameters())
    enc0 = [p.detach().clone() for p in model.encoder.parameters()]
    head0 = [p.detach().clone() for p in model.head.parameters()]
    for _ in range(20):
        opt.zero_grad()
        loss = t["loss_fn"](model(x), y)
        loss.backward()
        opt.step()
    assert all(p.grad is None for p in model.encoder.parameters())
    enc_move = max((p - q).abs().max().item() for p, q in zip(model.encoder.parameters(), enc0))
    head_move = max((p - q).abs().max().item() for p, q in zip(model.head.parameters(), head0))
    assert enc_move == 0.0 and head_move > 1e-3, (enc_move, head_move)
    return f"20 steps: encoder grads None, encoder moved {enc_move}, head moved {head_move:.4f}"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
