import copy
import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("ua_optimizer_json_lr_overrides_cli_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(model, opt, loss_fn, x, y, steps=200):
    with torch.no_grad():
        first = loss_fn(model(x), y).item()
    for _ in range(steps):
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()
    with torch.no_grad():
        return first, loss_fn(model(x), y).item()


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    x, y = t["batch"]
    reference = copy.deepcopy(model)

    opt = t["optimizer"](model.parameters())
    used_lr = opt.param_groups[0]["lr"]
    l0, l1 = _train(model, opt, loss_fn, x, y)

    asked = torch.optim.AdamW(reference.parameters(), lr=mod.MAIN_CONFIG["lr"], weight_decay=0.01)
    r0, r1 = _train(reference, asked, loss_fn, x, y)

    drop = 1 - l1 / l0
    drop_asked = 1 - r1 / r0
    assert drop < 0.05, drop
    assert drop_asked > 0.3, drop_asked
    return (f"optimizer runs at lr={used_lr:g} (config asked {mod.MAIN_CONFIG['lr']:g}); 200 steps cut the loss by "
            f"{100 * drop:.1f}% vs {100 * drop_asked:.0f}% at the requested lr")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
