import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("yb_ngf_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(t, model, steps=40):
    (atoms, adj), y = t["batch"]
    opt = t["optimizer"](model.parameters())
    for _ in range(steps):
        opt.zero_grad()
        t["loss_fn"](model(atoms, adj), y).backward()
        opt.step()


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    inner = [p for layer in model.conv1.inner_layers + model.conv2.inner_layers for p in layer.parameters()]
    registered = {id(p) for p in model.parameters()}
    assert not any(id(p) in registered for p in inner)
    before_inner = [p.detach().clone() for p in inner]
    before_head = [p.detach().clone() for p in model.head.parameters()]
    _train(t, model)
    inner_moved = max((p - b).abs().max().item() for p, b in zip(inner, before_inner))
    head_moved = max((p - b).abs().max().item() for p, b in zip(model.head.parameters(), before_head))
    assert inner_moved == 0.0, inner_moved
    assert head_moved > 1e-3, head_moved

    # healthy twin: the same layers held in an nn.ModuleList are trained
    torch.manual_seed(0)
    twin = mod.FingerprintRegressor()
    for conv in (twin.conv1, twin.conv2):
        conv.inner_layers = torch.nn.ModuleList(conv.inner_layers)
    tw_before = [p.detach().clone() for p in twin.conv1.inner_layers.parameters()]
    _train(t, twin)
    twin_moved = max((p - b).abs().max().item() for p, b in zip(twin.conv1.inner_layers.parameters(), tw_before))
    assert twin_moved > 1e-3, twin_moved
    return (f"{len(inner)} inner dense tensors absent from model.parameters(); after 40 Adam steps they moved "
            f"{inner_moved:.1e} while the head moved {head_moved:.3f} (ModuleList twin: inner moved {twin_moved:.3f})")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
