"""Per-layer weight-gradient norms and 60 training steps, without vs with the input skip connections."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F

_spec = importlib.util.spec_from_file_location("z_imnet_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _run(skips, steps=60):
    torch.manual_seed(0)
    model = _t.ImplicitDecoder(skips)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(0)
    losses, grads = [], None
    for i in range(steps):
        pts, codes, occ = _t.make_shapes(g)
        opt.zero_grad()
        loss = F.mse_loss(model(pts, codes), occ)
        loss.backward()
        if i == 0:
            grads = [l.weight.grad.norm().item() for l in model.layers] + [model.out.weight.grad.norm().item()]
        opt.step()
        losses.append(loss.item())
    pts, codes, occ = _t.make_shapes(torch.Generator().manual_seed(5), n=64)
    with torch.no_grad():
        out = model(pts, codes)
    baseline = F.mse_loss(torch.full_like(occ, occ.mean().item()), occ).item()
    return grads, F.mse_loss(out, occ).item(), out.std().item(), baseline


def _check() -> str:
    g_bug, loss_bug, spread_bug, base = _run(False)
    g_ok, _, _, _ = _run(True)
    assert max(g_bug) < 1e-5, g_bug
    assert g_ok[-1] > 1e-2 and g_ok[-1] / g_ok[0] > 1e4, g_ok
    assert abs(loss_bug - base) < 0.01 and spread_bug < 0.02, (loss_bug, base, spread_bug)
    return (f"no skips: weight-grad norms {min(g_bug):.1e}..{max(g_bug):.1e} in every layer, MSE after 60 steps "
            f"{loss_bug:.3f} vs constant-prediction {base:.3f}, output spread {spread_bug:.4f}; with input skips the "
            f"output layer's grad is {g_ok[-1]:.2f} (first layer {g_ok[0]:.1e})")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
