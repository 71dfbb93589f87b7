import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_q_sequoia_rl_encoder_no_grad_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    x, y = t["batch"]
    enc_before = [p.detach().clone() for p in model.encoder.parameters()]
    opt = t["optimizer"](model.parameters())
    for _ in range(10):
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()
    enc_grads = [p.grad for p in model.encoder.parameters()]
    head_gnorm = sum(p.grad.norm().item() for p in model.output_head.parameters())
    enc_moved = max((p.detach() - b).abs().max().item() for p, b in zip(model.encoder.parameters(), enc_before))
    assert all(g is None for g in enc_grads), enc_grads
    assert enc_moved == 0.0 and head_gnorm > 0, (enc_moved, head_gnorm)
    return (f"after 10 steps the encoder's .grad is None for all {len(enc_grads)} tensors and it moved by {enc_moved}; "
            f"output head grad norm {head_gnorm:.3f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
