"""Train the target's net: hidden ReLUs output 0 on every input, first layer gets zero gradient, output is constant."""
import importlib.util
import os

import torch


def _load():
    p = os.path.join(os.path.dirname(os.path.abspath(__file__)), "target.py")
    s = importlib.util.spec_from_file_location("v_relu_sum_target", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def _check() -> str:
    t = _load().make_target()
    model, (x, y), loss_fn = t["model"], t["batch"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    w0 = model.hidden.weight.detach().clone()
    max_hidden_grad = 0.0
    for _ in range(1000):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        max_hidden_grad = max(max_hidden_grad, model.hidden.weight.grad.abs().max().item())
        opt.step()
    with torch.no_grad():
        acts = torch.relu(model.hidden(x))
        pred = model(x)
        other = model(torch.tensor([[2., 3., 4., 5., 9.]]))
    assert acts.abs().max().item() == 0.0 and max_hidden_grad == 0.0
    assert torch.equal(model.hidden.weight, w0)
    assert abs(pred[0].item() - 15.5) < 0.05 and abs(pred[1].item() - 15.5) < 0.05, pred
    return (f"after 1000 steps: hidden ReLU outputs all 0, first-layer grad max {max_hidden_grad}, "
            f"predictions {pred[0].item():.2f}/{pred[1].item():.2f} (targets 15/16), unseen input -> {other.item():.2f}, "
            f"loss {loss.item():.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
