"""Self-attention without positional encodings must be permutation-equivariant over tokens; the view()-split heads are not."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("o_textcls_mha_heads_view_target", p)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def _fixed_forward(att, x):
    b, l, _ = x.shape
    h, d = att.num_head, att.dim_head
    q = att.fc_q(x).view(b, l, h, d).transpose(1, 2)
    k = att.fc_k(x).view(b, l, h, d).transpose(1, 2)
    v = att.fc_v(x).view(b, l, h, d).transpose(1, 2)
    a = torch.softmax(q @ k.transpose(-1, -2) / d ** 0.5, dim=-1)
    ctx = (a @ v).transpose(1, 2).reshape(b, l, h * d)
    return att.norm(x + att.fc(ctx))


def _check() -> str:
    m = _load()
    t = m.make_target()
    model = t["model"].eval()
    x, _ = t["batch"]
    perm = torch.randperm(x.shape[1], generator=torch.Generator().manual_seed(5))
    with torch.no_grad():
        e = model.emb(x)
        bad = model.att(e)
        bad_p = model.att(e[:, perm])
        err_bad = (bad[:, perm] - bad_p).abs().max().item()
        ok = _fixed_forward(model.att, e)
        ok_p = _fixed_forward(model.att, e[:, perm])
        err_ok = (ok[:, perm] - ok_p).abs().max().item()
        # token 0's output depends on the other tokens' features *through the head split itself*:
        # with all attention weights uniform it should be the same for every token, it is not.
    assert err_bad > 1e-2 and err_ok < 1e-4, (err_bad, err_ok)
    return (f"view()-split heads: permuting the tokens changes outputs by {err_bad:.3f} beyond the permutation "
            f"(transpose-split heads: {err_ok:.1e})")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
