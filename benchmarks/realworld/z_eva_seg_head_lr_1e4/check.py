"""Same decoder and step budget at lr 1e-4 (config) and 2e-3 (fixed config)."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("z_eva_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)

STEPS = 150


def _run(lr):
    torch.manual_seed(0)
    model = _t.Decoder()
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.05)
    g = torch.Generator().manual_seed(1)
    losses = []
    for _ in range(STEPS):
        x, y = _t.make_data(g, 32)
        opt.zero_grad()
        loss = _t.dice_loss(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    xv, yv = _t.make_data(torch.Generator().manual_seed(99), 64)
    with torch.no_grad():
        dice = 1 - _t.dice_loss(model(xv), yv).item()
    return dice, sum(losses[:10]) / 10, sum(losses[-10:]) / 10


def _check() -> str:
    dice_lo, first_lo, last_lo = _run(_t.LR)
    dice_hi, _, last_hi = _run(2e-3)
    assert dice_lo < 0.6 and first_lo - last_lo < 0.2, (dice_lo, first_lo, last_lo)
    assert dice_hi > 0.85 and dice_hi > dice_lo + 0.3, (dice_hi, dice_lo)
    return (f"{STEPS} steps at lr 1e-4: dice loss {first_lo:.3f} -> {last_lo:.3f}, val dice {dice_lo:.3f}; "
            f"at lr 2e-3: loss -> {last_hi:.3f}, val dice {dice_hi:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
