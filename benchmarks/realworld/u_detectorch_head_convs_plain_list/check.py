import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_u_detectorch_head_convs_plain_list_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    x, y = t["batch"]
    opt = t["optimizer"](model.parameters())
    conv_before = [c.weight.detach().clone() for c in model.convs]
    fc_before = model.fc.weight.detach().clone()
    for _ in range(20):
        loss = loss_fn(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    conv_moved = max(float((c.weight.detach() - b).abs().max()) for c, b in zip(model.convs, conv_before))
    conv_has_grad = all(c.weight.grad is not None for c in model.convs)
    fc_moved = float((model.fc.weight.detach() - fc_before).abs().max())
    n_registered = sum(p.numel() for p in model.parameters())
    n_conv = sum(p.numel() for c in model.convs for p in c.parameters())
    in_state = any("convs" in k for k in model.state_dict())
    assert conv_moved == 0.0 and conv_has_grad and fc_moved > 1e-3 and not in_state, (conv_moved, fc_moved, in_state)
    return (f"conv layers in the list get gradients but move {conv_moved} after 20 steps (fc moves {fc_moved:.3f}); "
            f"{n_conv} of their weights missing from the {n_registered} registered parameters and from state_dict")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
