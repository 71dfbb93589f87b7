import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("td_fastformer_alpha_over_heads_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    torch.manual_seed(0)
    attn = mod.AdditiveAttention(16, 4).eval()
    tokens = torch.randn(8, 12, 16)
    with torch.no_grad():
        attn(tokens)
        alphas = attn.attn_weights[0]
        gq1 = attn.global_query.norm(dim=-1).mean().item()
        # the same 12 tokens listed twice: a pooling over tokens should not change
        attn(torch.cat([tokens, tokens], dim=1))
        gq2 = attn.global_query.norm(dim=-1).mean().item()
    col_sums = alphas.sum(dim=1)  # summed over the 12 tokens, per head
    ratio = gq2 / gq1
    assert (col_sums - 1).abs().max().item() > 0.5, col_sums
    assert ratio > 1.8, ratio
    return (f"pooling weights summed over the 12 column tokens range {col_sums.min():.2f}..{col_sums.max():.2f} "
            f"(not 1); duplicating the tokens scales the global query norm by {ratio:.2f}x")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
