import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("ya_wtte_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, loss_fn, steps=400):
    torch.manual_seed(0)
    t = mod.make_target()
    model = t["model"]
    x, target = t["batch"]
    opt = t["optimizer"](model.parameters())
    y = target[..., 0]
    first = None
    for step in range(steps):
        opt.zero_grad()
        out = model(x)
        loss = loss_fn(out, target)
        if not torch.isfinite(loss):
            a, b = out[..., 0].detach(), out[..., 1].detach()
            gap = torch.exp(torch.pow((y + 1.0) / a, b) - torch.pow((y + mod.EPS) / a, b)) - 1.0
            first = (step, loss.item(), int((gap == 0).sum()), b.min().item(), a.max().item())
            break
        loss.backward()
        opt.step()
    return first, loss.item()


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    x, target = t["batch"]
    init = t["loss_fn"](t["model"](x), target).item()
    censored = 1 - target[..., 1].mean().item()
    bad, _ = _train(mod, mod.weibull_loss)

    def eps_loss(output, tgt):
        y, u = tgt[..., 0], tgt[..., 1]
        a, b = output[..., 0], output[..., 1]
        h0 = torch.pow((y + mod.EPS) / a, b)
        h1 = torch.pow((y + 1.0) / a, b)
        return -(u * torch.log(torch.exp(h1 - h0) - 1.0 + mod.EPS) - h1).mean()

    good, final = _train(mod, eps_loss, steps=bad[0] + 60 if bad else 400)
    assert torch.isfinite(torch.tensor(init))
    assert bad is not None and bad[2] >= 1, bad
    assert good is None and final == final, (good, final)
    step, val, zeros, bmin, amax = bad
    return (f"{censored:.0%} of steps censored; loss {init:.3f} at start, becomes {val} at step {step} when "
            f"exp(h1-h0)-1 underflows to 0 for {zeros} entries (min beta {bmin:.3f}, max alpha {amax:.0f}); "
            f"with +eps inside the log the same run stays finite for {bad[0] + 60} steps (loss {final:.3f})")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
