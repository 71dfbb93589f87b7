"""Evaluate the target's loss on its batch: inf loss and NaN gradients; the same terms in log space are finite."""
import importlib.util
import os

import torch
import torch.nn.functional as F


def _load():
    p = os.path.join(os.path.dirname(os.path.abspath(__file__)), "target.py")
    s = importlib.util.spec_from_file_location("v_eos_target", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, (ids, tgt) = t["model"], t["batch"]
    loss = t["loss_fn"](model(ids), tgt)
    loss.backward()
    nan_grads = sum(int(torch.isnan(p.grad).any()) for p in model.parameters() if p.grad is not None)
    assert not torch.isfinite(loss), loss
    assert nan_grads > 0
    model.zero_grad()
    logits = model(ids)
    nxt, is_pos = tgt
    lsm = F.log_softmax(logits[:, -1], dim=-1)
    log_not_eos = torch.logsumexp(logits[:, -1, 1:], -1) - torch.logsumexp(logits[:, -1], -1)
    stable = (F.cross_entropy(logits.flatten(0, 1), nxt.flatten()) - 0.5 * log_not_eos[is_pos].mean()
              - 0.5 * lsm[~is_pos, 0].mean())
    stable.backward()
    assert torch.isfinite(stable) and all(torch.isfinite(p.grad).all() for p in model.parameters())
    return f"naive EOS penalty: loss {loss.item()}, {nan_grads} params with NaN grads; log-space version: loss {stable.item():.2f}, finite grads"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
