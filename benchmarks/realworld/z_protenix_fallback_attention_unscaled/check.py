"""Same weights, SDPA path vs manual fallback: output mismatch, attention sharpness and softmax-gradient size."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("z_protenix_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _attn_stats(model, single, pair, scale):
    b, n, _ = single.shape
    q, k, _ = model.qkv(model.norm(single)).view(b, n, 3, _t.HEADS, _t.HEAD_DIM).permute(2, 0, 3, 1, 4)
    bias = model.pair_bias(pair).permute(0, 3, 1, 2)
    logits = (q @ k.transpose(-2, -1)) * scale + bias
    logits.retain_grad()
    probs = torch.softmax(logits, dim=-1)
    (probs * torch.randn_like(probs, generator=torch.Generator().manual_seed(3))).sum().backward()
    return probs.max(-1).values.mean().item(), logits.grad.abs().mean().item()


def _check() -> str:
    torch.manual_seed(0)
    model = _t.BiasedAttention()
    (single, pair), _ = _t.make_inputs(torch.Generator().manual_seed(1))
    with torch.no_grad():
        model.use_sdpa = False
        fallback = model(single, pair)
        model.use_sdpa = True
        fused = model(single, pair)
    rel = ((fallback - fused).norm() / (fused - single).norm()).item()
    sharp_bug, grad_bug = _attn_stats(model, single, pair, 1.0)
    sharp_ok, grad_ok = _attn_stats(model, single, pair, _t.HEAD_DIM ** -0.5)
    assert rel > 0.3, rel
    assert sharp_bug > 0.5 and sharp_bug > 2 * sharp_ok, (sharp_bug, sharp_ok)
    assert grad_bug < grad_ok, (grad_bug, grad_ok)
    return (f"fallback vs SDPA with identical weights: attention-update mismatch {rel:.0%}; mean max attention prob "
            f"{sharp_bug:.2f} unscaled vs {sharp_ok:.2f} scaled (head_dim {_t.HEAD_DIM}); mean |dL/dlogit| {grad_bug:.2e} vs {grad_ok:.2e}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
