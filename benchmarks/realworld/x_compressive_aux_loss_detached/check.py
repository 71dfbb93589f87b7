"""Train the target with the auxiliary loss: with the compressed memory detached, the compression conv gets no gradient,
never changes and the auxiliary loss stays flat; without the detach the conv learns and the auxiliary loss falls."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("x_compressive_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _train(detach):
    torch.manual_seed(0)
    model = _t.CompressiveBlock(detach_compressed=detach)
    w0 = model.compress.weight.detach().clone()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    g = torch.Generator().manual_seed(1)
    aux_log, ce_log = [], []
    for _ in range(200):
        inputs, targets = _t.make_batch(g)
        out = model(inputs)
        loss = _t.total_loss(out, targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
        aux_log.append(out[1].item())
        ce_log.append(loss.item() - out[1].item())
    moved = float((model.compress.weight.detach() - w0).abs().max())
    return aux_log, ce_log, moved, model.compress.weight.grad


def _check() -> str:
    aux, ce, moved, grad = _train(True)
    aux_ok, _, moved_ok, _ = _train(False)
    a0, a1 = sum(aux[:10]) / 10, sum(aux[-10:]) / 10
    b1 = sum(aux_ok[-10:]) / 10
    assert grad is None and moved == 0.0, (grad, moved)
    assert ce[-1] < 0.5 * ce[0], (ce[0], ce[-1])
    assert a1 > 0.8 * a0, (a0, a1)
    assert moved_ok > 0 and b1 < 0.7 * a1 and b1 < a0, (moved_ok, b1, a1, a0)
    return (f"compressed memory detached: main loss {ce[0]:.2f} -> {ce[-1]:.2f}, aux loss {a0:.4f} -> {a1:.4f}, "
            f"compress conv grad None, max weight change {moved:.1f}; not detached: aux loss -> {b1:.4f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
