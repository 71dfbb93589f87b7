import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_u_zh_textcls_transformer_head_view_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _load().make_target()
    model = t["model"].eval()
    att = model.att
    b, d = 2, att.num_head * att.dim_head
    # 1) what one "head row" holds: tag every position's features with its position index
    x = torch.arange(16.0).view(1, 16, 1).expand(b, 16, d)
    rows = x.reshape(b * att.num_head, -1, att.dim_head)
    mixed_rows = sum(int(r.unique().numel() > 1) for r in rows)
    # 2) token 0's encoder output ignores the last token entirely (with the model's own head split)
    ids = t["batch"][0][:2].clone()
    ids2 = ids.clone()
    ids2[:, -1] = (ids2[:, -1] + 7) % 200
    with torch.no_grad():
        moved = (model.encode(ids2)[:, 0] - model.encode(ids)[:, 0]).abs().max().item()
        # same weights, heads split with view + transpose
        def split(z):
            return z.view(b, -1, att.num_head, att.dim_head).transpose(1, 2)
        e, e2 = model.emb(ids) + model.pos, model.emb(ids2) + model.pos
        outs = []
        for z in (e, e2):
            a = torch.softmax(split(att.q(z)) @ split(att.k(z)).transpose(-1, -2) / att.dim_head ** 0.5, -1)
            ctx = (a @ split(att.v(z))).transpose(1, 2).reshape(b, -1, d)
            outs.append(att.norm(z + att.out(ctx))[:, 0])
        moved_ok = (outs[1] - outs[0]).abs().max().item()
    assert mixed_rows == b * att.num_head and moved < 1e-6 and moved_ok > 1e-3, (mixed_rows, moved, moved_ok)
    return (f"{mixed_rows}/{b * att.num_head} head rows mix features of several positions "
            f"(row 0 holds positions {rows[0].unique().int().tolist()}); editing the last token moves token 0 by "
            f"{moved:.1e} with the view split vs {moved_ok:.3f} with a transpose split")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
