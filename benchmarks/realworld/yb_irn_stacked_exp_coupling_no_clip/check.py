import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("yb_irn_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run_training(mod, model, hr, steps=15):
    opt = torch.optim.Adam(model.parameters(), lr=2e-4)
    losses, norms = [], []
    for _ in range(steps):
        opt.zero_grad()
        loss = mod.irn_loss(model, hr)
        loss.backward()
        norms.append(torch.nn.utils.clip_grad_norm_(model.parameters(), float("inf")).item())  # measure only
        opt.step()
        losses.append(loss.item())
    return losses, norms


def _block_grad_norms(mod, model, hr):
    model.zero_grad()
    mod.irn_loss(model, hr).backward()
    return [sum(p.grad.pow(2).sum() for p in blk.parameters()).sqrt().item() for blk in model.operations[1:]]


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, (hr, _) = t["model"], t["batch"]
    deep = _block_grad_norms(mod, model, hr)
    losses, norms = _run_training(mod, model, hr)

    torch.manual_seed(0)
    shallow = mod.InvRescaleNet(n_blocks=6)
    sh_blocks = _block_grad_norms(mod, shallow, hr)
    sh_losses, sh_norms = _run_training(mod, shallow, hr)

    assert norms[0] > 1e4 and sorted(norms)[len(norms) // 2] > 1e2, norms
    assert min(deep) > 100 * max(sh_blocks), (min(deep), max(sh_blocks))
    assert losses[-1] > 50 * sh_losses[-1], (losses[-1], sh_losses[-1])
    assert sh_norms[0] < 1e3
    return (f"{len(deep)} exp-coupling blocks: per-block grad norm {min(deep):.1e}..{max(deep):.1e}, total "
            f"{norms[0]:.1e} at step 0, loss {losses[0]:.0f} -> {losses[-1]:.0f} after 15 Adam steps; 6 blocks: "
            f"per-block {max(sh_blocks):.1e} max, total {sh_norms[0]:.1e}, loss {sh_losses[0]:.2f} -> {sh_losses[-1]:.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
