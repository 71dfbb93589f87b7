import importlib.util
import math
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_e_tinytransformers_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class _Scaled(torch.nn.Module):
    """The same model with the scores divided by sqrt(d) (the reference)."""

    def __init__(self, base):
        super().__init__()
        self.base = base

    def forward(self, x):
        b = self.base
        h = b.emb(x) + b.pos
        scores = b.q(h[:, :1]) @ b.k(h).transpose(1, 2) / math.sqrt(h.shape[-1])
        return b.out((scores.softmax(-1) @ b.v(h))[:, 0])


def _train(model, x, y):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    epochs = []
    for _ in range(8):
        losses = []
        for i in range(0, len(x), 64):
            loss = F.cross_entropy(model(x[i : i + 64]), y[i : i + 64])
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        epochs.append(losses)
    return epochs


def _check() -> str:
    mod = _load()
    x, y = mod.pointer_data(2048, 1)
    torch.manual_seed(0)
    buggy = _train(mod.PointerAttention(), x, y)
    torch.manual_seed(0)
    ref = _train(_Scaled(mod.PointerAttention()), x, y)
    late_bug = [v for e in buggy[4:] for v in e]
    late_ref = [v for e in ref[4:] for v in e]
    assert max(late_bug) > 0.25 and min(late_bug) < 0.2, (max(late_bug), min(late_bug))
    assert max(late_ref) < 0.05, max(late_ref)
    return (
        f"epochs 5-8: unscaled attention loss oscillates {min(late_bug):.2f}..{max(late_bug):.2f}; "
        f"with 1/sqrt(d) it stays below {max(late_ref):.3f}"
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
