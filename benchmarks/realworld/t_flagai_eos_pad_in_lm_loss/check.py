"""Train the tiny LM on end-token-padded batches: the logged loss is dominated by trivially predicted padding."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("t_flagai_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, (ids, labels) = t["model"], t["batch"]
    opt = t["optimizer"](model.parameters())
    lengths = torch.tensor([len(s) for s in mod.make_samples()])
    pos = torch.arange(ids.shape[1]).unsqueeze(0)
    real = (pos < lengths.unsqueeze(1))[:, 1:]  # target positions that hold real tokens (incl. the first end)
    pad_frac = 1 - real.float().mean().item()
    for _ in range(120):
        opt.zero_grad()
        loss = t["loss_fn"](model(ids), labels)
        loss.backward()
        opt.step()
    with torch.no_grad():
        logits = model(ids)
        per_tok = F.cross_entropy(logits[:, :-1].transpose(1, 2), labels[:, 1:], reduction="none")
        logged = per_tok.mean().item()
        real_loss = per_tok[real].mean().item()
        pad_loss = per_tok[~real].mean().item()
    assert pad_frac > 0.5, pad_frac
    assert pad_loss < 0.05 and real_loss > 2 * logged, (logged, real_loss, pad_loss)
    return (
        f"{pad_frac:.0%} of label positions are end-token padding; logged loss {logged:.2f} "
        f"vs {real_loss:.2f} on real tokens (padding positions {pad_loss:.3f})"
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
