import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_v_aaconv_attn_out_reshape_scramble_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    aa = t["model"].aa
    torch.manual_seed(1)
    x = torch.randn(2, 16, 6, 6)
    with torch.no_grad():
        a = aa.attention(x)
        a_shift = aa.attention(torch.roll(x, shifts=1, dims=3))
        err_bug = (torch.roll(a, shifts=1, dims=3) - a_shift).abs().max().item()
        # same weights, heads' outputs put back in (B, heads, dv/heads, H*W) order before the reshape
        B, _, H, W = x.shape
        q, k, v = torch.split(aa.qkv(x), [aa.dk, aa.dk, aa.dv], dim=1)
        nh = aa.heads

        def fixed(inp):
            q, k, v = torch.split(aa.qkv(inp), [aa.dk, aa.dk, aa.dv], dim=1)
            q = q.reshape(B, nh, aa.dk // nh, H * W) * (aa.dk // nh) ** -0.5
            k = k.reshape(B, nh, aa.dk // nh, H * W)
            v = v.reshape(B, nh, aa.dv // nh, H * W)
            w = torch.softmax(torch.einsum("bhdi,bhdj->bhij", q, k), dim=-1)
            out = torch.einsum("bhij,bhdj->bhid", w, v).permute(0, 1, 3, 2).reshape(B, aa.dv, H, W)
            return aa.attn_out(out)

        f = fixed(x)
        err_ok = (torch.roll(f, shifts=1, dims=3) - fixed(torch.roll(x, shifts=1, dims=3))).abs().max().item()
        scale = a.abs().mean().item()
    assert err_ok < 1e-4 and err_bug > 0.5 * scale, (err_ok, err_bug, scale)
    return (
        f"rolling the input by one pixel: attention-branch output off from the rolled output by up to {err_bug:.3f} "
        f"(mean |out| {scale:.3f}); with the axes permuted before the reshape the error is {err_ok:.1e}"
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
