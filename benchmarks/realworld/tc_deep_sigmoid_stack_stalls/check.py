import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("tc_deep_sigmoid_stack_stalls_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    x, y = t["batch"]
    loss = loss_fn(model(x), y)
    loss.backward()
    first = model.net[0].weight.grad.norm().item()
    last = model.net[-1].weight.grad.norm().item()
    ratio = first / last
    w0 = model.net[0].weight.detach().clone()
    opt = t["optimizer"](model.parameters())
    for _ in range(200):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
    moved = (model.net[0].weight.detach() - w0).abs().max().item()
    var = y.var().item()
    assert ratio < 1e-5, ratio
    assert loss.item() > 0.95 * var, (loss.item(), var)
    return (f"first-layer gradient is {ratio:.1e} of the last layer's; after 200 SGD steps the loss is "
            f"{loss.item():.3f} vs target variance {var:.3f}, first-layer weights moved at most {moved:.1e}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
