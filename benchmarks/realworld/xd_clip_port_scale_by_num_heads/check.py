import importlib.util
import os

import torch
import torch.nn.functional as F


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("xd_clip_port_scale_by_num_heads_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _reference_attn(mod, x):
    """The same weights run through torch's scaled_dot_product_attention (default 1/sqrt(head_dim))."""
    b, t, c = x.shape
    def split(z):
        return z.view(b, t, mod.num_heads, mod.head_dim).transpose(1, 2)
    out = F.scaled_dot_product_attention(split(mod.q_proj(x)), split(mod.k_proj(x)), split(mod.v_proj(x)))
    return mod.out_proj(out.transpose(1, 2).reshape(b, t, c))


def _pcc(a, b):
    a, b = a.flatten() - a.mean(), b.flatten() - b.mean()
    return (a @ b / (a.norm() * b.norm())).item()


def _run() -> str:
    t = _load().make_target()
    model = t["model"].eval()
    patches, _ = t["batch"]
    with torch.no_grad():
        feats = model.image_features(patches)
        probs = model(patches).softmax(-1)
        saved = [blk.attn.forward for blk in model.blocks]
        for blk in model.blocks:
            blk.attn.forward = (lambda m: (lambda x: _reference_attn(m, x)))(blk.attn)
        ref_feats = model.image_features(patches)
        ref_probs = model(patches).softmax(-1)
        for blk, f in zip(model.blocks, saved):
            blk.attn.forward = f
        a = model.blocks[0].attn
        x = model.blocks[0].ln1(torch.cat([model.cls.expand(8, -1, -1), model.patch(patches)], 1) + model.pos)
        q = a.q_proj(x).view(8, 17, a.num_heads, a.head_dim).transpose(1, 2)
        k = a.k_proj(x).view(8, 17, a.num_heads, a.head_dim).transpose(1, 2)
        ours = ((q @ k.transpose(-2, -1)) * a.scale).softmax(-1).max(-1).values.mean().item()
        ref = ((q @ k.transpose(-2, -1)) * a.head_dim ** -0.5).softmax(-1).max(-1).values.mean().item()
    pcc = _pcc(feats, ref_feats)
    prob_gap = (probs - ref_probs).abs().max().item()
    assert pcc < 0.98, pcc
    assert ours > ref + 0.05, (ours, ref)
    return (f"image features vs same weights through scaled_dot_product_attention: PCC {pcc:.3f}, max class-prob "
            f"difference {prob_gap:.3f}; mean max attention weight {ours:.2f} vs {ref:.2f} in the reference")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
