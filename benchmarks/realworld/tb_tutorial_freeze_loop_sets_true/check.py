import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("tb_tutorial_freeze_loop_sets_true_target",
                                                  os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    x, y = t["batch"]
    opt = t["optimizer"](model.parameters())
    before = model.conv1.weight.detach().clone()
    model.train()
    for _ in range(10):
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()
    moved = (model.conv1.weight.detach() - before).abs().max().item()
    trainable_backbone = sum(p.numel() for n, p in model.named_parameters()
                             if p.requires_grad and not n.startswith("fc."))
    # a real freeze leaves conv1 with no gradient, so SGD never touches it (moved == 0)
    assert moved > 1e-5, moved
    assert trainable_backbone > 0, trainable_backbone
    return (f"after 10 SGD steps the 'frozen' conv1 weights moved by up to {moved:.2e}; "
            f"{trainable_backbone} backbone parameters still require grad")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
