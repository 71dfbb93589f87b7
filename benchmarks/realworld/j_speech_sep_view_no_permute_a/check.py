import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_j_speech_sep_view_no_permute_a_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class _Permuted(torch.nn.Module):
    """The same network with the frames kept apart before flattening."""

    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, x):
        h = torch.relu(self.inner.conv(x.unsqueeze(1)))
        h = h.permute(0, 2, 1, 3).reshape(x.shape[0], x.shape[1], -1)
        return self.inner.head(h)


def _train(model, t):
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(8):
        for i in range(0, len(x), 64):
            opt.zero_grad()
            t["loss_fn"](model(x[i : i + 64]), y[i : i + 64]).backward()
            opt.step()
    vx, vy = t["val_data"]
    with torch.no_grad():
        return t["metric_fn"](model(x), y), t["metric_fn"](model(vx), vy)


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    torch.manual_seed(0)
    tr_bug, va_bug = _train(mod.FrameNet(), t)
    torch.manual_seed(0)
    tr_ok, va_ok = _train(_Permuted(mod.FrameNet()), t)
    assert va_bug < 0.75 and va_ok > 0.9, (va_bug, va_ok)
    return (
        f"per-frame accuracy: train {tr_bug:.2f} / val {va_bug:.2f} as written, "
        f"{tr_ok:.2f} / {va_ok:.2f} when each frame keeps its own features"
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
