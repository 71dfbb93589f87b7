import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_j_textclf_label_attn_mask_b_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class _Fixed:
    """The same model with the mask the right way round (True = real token)."""

    def __init__(self, mod):
        self.mod = mod

    def __call__(self, model, ids):
        h = model.emb(ids)
        q = model.queries.expand(ids.shape[0], -1, -1)
        ctx = F.scaled_dot_product_attention(q, h, h, attn_mask=(ids != self.mod.PAD)[:, None, :])
        return model.score(ctx).squeeze(-1)


def _train(mod, t, fwd):
    torch.manual_seed(0)
    model = mod.LabelAttentionClassifier()
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(6):
        for i in range(0, len(x), 32):
            opt.zero_grad()
            t["loss_fn"](fwd(model, x[i : i + 32]), y[i : i + 32]).backward()
            opt.step()
    vx, vy = t["val_data"]
    with torch.no_grad():
        return t["metric_fn"](fwd(model, vx), vy)


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    bad = _train(mod, t, lambda m, ids: m(ids))
    good = _train(mod, t, _Fixed(mod))
    assert good > 0.9 and bad < 0.7, (bad, good)
    return f"val accuracy {bad:.2f} with the padding mask as passed, {good:.2f} with it inverted"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
