import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("wd_histaugan_init_std_typo_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    x, y = t["batch"]
    acts = []

    def keep(_mod, _inp, out):
        out.retain_grad()
        acts.append(out)

    hooks = [blk.register_forward_hook(keep) for blk in model.model]
    loss = loss_fn(model(x), y)
    loss.backward()
    for h in hooks:
        h.remove()
    rms = [a.grad.norm().item() / a.numel() ** 0.5 for a in acts]
    growth = rms[0] / rms[-1]
    total = torch.sqrt(sum(p.grad.pow(2).sum() for p in model.parameters() if p.grad is not None)).item()
    assert growth > 5, rms
    assert total > 50, total
    assert loss.item() > 20, loss.item()
    return (f"initial loss {loss.item():.1f}; total grad norm {total:.0f}; per-element gradient grows "
            f"{growth:.0f}x from the last conv block back to the first")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
