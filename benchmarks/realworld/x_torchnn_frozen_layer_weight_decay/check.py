"""Fine-tune the target: the 'frozen' feature layer receives zero gradient, yet weight decay (through momentum) still
shrinks it every step. Passing only the classifier to the optimizer leaves the features untouched."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("x_torchnn_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _train(only_head):
    tg = _t.make_target()
    model = tg["model"]
    w0 = model.features.weight.detach().clone()
    params = model.classifier.parameters() if only_head else model.parameters()
    opt = tg["optimizer"](params)
    g = torch.Generator().manual_seed(1)
    for _ in range(300):
        x, y = _t.make_batch(g)
        loss = tg["loss_fn"](model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    w1 = model.features.weight.detach()
    grad_norm = float(model.features.weight.grad.norm())
    return float(w0.norm()), float(w1.norm()), float((w1 - w0).norm() / w0.norm()), grad_norm


def _check() -> str:
    n0, n1, rel, gnorm = _train(False)
    _, m1, rel_ok, _ = _train(True)
    assert gnorm == 0.0, gnorm
    assert rel > 0.2 and n1 < 0.8 * n0, (rel, n0, n1)
    assert rel_ok == 0.0, rel_ok
    return (f"zero-gradient 'frozen' layer in an SGD+weight-decay optimizer: grad norm {gnorm:.1f}, weight norm "
            f"{n0:.2f} -> {n1:.2f} after 300 steps ({rel:.0%} relative change); layer left out of the optimizer: "
            f"norm {m1:.2f}, change {rel_ok:.0%}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
