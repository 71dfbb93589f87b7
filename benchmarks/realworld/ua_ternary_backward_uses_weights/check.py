import importlib.util
import os

import torch
import torch.nn.functional as F


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("ua_ternary_backward_uses_weights_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _latent_grad(mod, model, x, y):
    model.zero_grad()
    F.cross_entropy(model(x), y).backward()
    return model.fc1.weight.grad.clone()


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    x, y = t["batch"]
    g_true = _latent_grad(mod, model, x, y)
    g_other = _latent_grad(mod, model, x, (y + 1) % 4)  # completely different labels
    same = torch.allclose(g_true, g_other)

    # reference: straight-through gradient scaled by the ternary scales, built from dL/dWq
    layer = model.fc1
    wq = mod.TernaryQuant.apply(layer.weight.detach(), layer.w_p.detach(), layer.w_n.detach()).requires_grad_(True)
    h = F.relu(F.linear(x, wq, layer.bias.detach()))
    F.cross_entropy(model.fc2(h), y).backward()
    g_q = wq.grad
    w = layer.weight.detach()
    delta = mod.THRESHOLD * w.abs().max()
    pos, neg = (w > delta).float(), (w < -delta).float()
    ref = g_q * (layer.w_p.detach() * pos + layer.w_n.detach() * neg + (1 - pos - neg))
    cos = F.cosine_similarity(g_true.flatten(), ref.flatten(), dim=0).item()

    assert same, "latent-weight gradient changed with the labels"
    assert abs(cos) < 0.5, cos
    return (f"fc1 latent-weight gradient identical for two different label sets: {same}; "
            f"cosine vs straight-through reference {cos:.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
