import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_g_mha_concat_heads_no_permute_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, fixed):
    torch.manual_seed(0)
    t = mod.make_target()
    model = t["model"]
    if fixed:
        def forward(x, self=model.attn):
            b, s, _ = x.shape
            q, k, v = self.qkv(x).reshape(b, s, self.heads, 3 * self.hd).permute(0, 2, 1, 3).chunk(3, dim=-1)
            att = torch.softmax(q @ k.transpose(-2, -1) / self.hd**0.5, dim=-1)
            return self.out((att @ v).permute(0, 2, 1, 3).reshape(b, s, self.heads * self.hd))
        model.attn.forward = forward
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(6):
        for i in range(0, len(x), 32):
            opt.zero_grad()
            t["loss_fn"](model(x[i : i + 32]), y[i : i + 32]).backward()
            opt.step()
    vx, vy = t["val_data"]
    with torch.no_grad():
        return t["metric_fn"](model(vx), vy)


def _check() -> str:
    mod = _load()
    bug, ok = _train(mod, False), _train(mod, True)
    assert ok > 0.9 and bug < ok - 0.15, (bug, ok)
    return f"6 epochs: per-token val accuracy {bug:.2f} with heads merged by reshape, {ok:.2f} with permute first"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
