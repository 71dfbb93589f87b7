"""The attention weight of every query goes to the zero-padded halo slots, none to the real keys."""

import importlib.util
from pathlib import Path

import torch


def _target():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("_t_halonet_mask", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def _check() -> str:
    t = _target().make_target()
    model, (ids, _) = t["model"], t["batch"]
    attn = model.attn
    captured = {}
    orig = torch.Tensor.softmax

    def grab(self, *a, **k):
        out = orig(self, *a, **k)
        captured["attn"] = out.detach()
        return out

    torch.Tensor.softmax = grab
    try:
        with torch.no_grad():
            attn(model.emb(ids))
    finally:
        torch.Tensor.softmax = orig
    w = captured["attn"]  # (B, n, blk, win)
    length, blk, halo = ids.shape[1], attn.block, attn.halo
    ones = torch.nn.functional.pad(torch.ones(1, 1, length), (halo, halo)).unfold(2, blk + 2 * halo, blk)[0, 0]
    on_pad = (w * (ones == 0)[None, :, None, :]).sum(-1)
    edge = on_pad[:, [0, -1]].mean().item()
    inner = w[:, 1:-1].sum(-1).mean().item()
    assert edge > 0.99, edge
    # windows in the middle have no padding: every real key is blanked equally, so attention there is uniform
    spread = (w[:, 1:-1].max(-1).values - w[:, 1:-1].min(-1).values).max().item()
    assert spread < 1e-6, spread
    return (f"border windows put {edge:.3f} of their attention on zero-padding slots; interior windows "
            f"(all keys masked) attend uniformly (max-min weight {spread:.1e}, row sum {inner:.2f})")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
