"""Attention weights are all exactly 1.0 and the attention scorer gets a zero gradient; over the part axis they vary."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _load():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("u_capsule_target", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def _check() -> str:
    t = _load().make_target()
    model, (x, y), loss_fn = t["model"], t["batch"], t["loss_fn"]
    loss = loss_fn(model(x), y)
    loss.backward()
    attn = model.last_attention
    g_score = model.score.weight.grad.abs().max().item()
    g_embed = model.embed.weight.grad.abs().max().item()
    assert torch.all(attn == 1.0), attn.flatten()[:5]
    assert g_score == 0.0 and g_embed > 1e-4, (g_score, g_embed)
    with torch.no_grad():
        h = torch.relu(model.embed(x))
        fixed = F.softmax(model.score(h), dim=1)
    assert fixed.std().item() > 1e-3 and abs(fixed.sum(1).mean().item() - 1) < 1e-5
    return (f"attention weights all 1.0 (shape {tuple(attn.shape)}), scorer grad {g_score:.1e} vs embed grad "
            f"{g_embed:.1e}; over the part axis weights vary (std {fixed.std().item():.3f})")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
