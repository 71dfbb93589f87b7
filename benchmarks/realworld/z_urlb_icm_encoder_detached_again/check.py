import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("z_urlb_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _train(detach_again):
    tg = _t.make_target(detach_again)
    model, ((o, n), a) = tg["model"], tg["batch"]
    w0 = model.encoder[0].weight.detach().clone()
    opt = tg["optimizer"](model.parameters())
    for _ in range(150):
        opt.zero_grad()
        loss = tg["loss_fn"](model(o, n), a)
        loss.backward()
        opt.step()
    g = model.encoder[0].weight.grad
    moved = (model.encoder[0].weight - w0).abs().max().item()
    return loss.item(), g, moved


def _check() -> str:
    lb, gb, mb = _train(True)
    lg, gg, mg = _train(False)
    assert gb is None and mb == 0.0, (gb, mb)
    assert gg is not None and mg > 1e-2 and lg < 0.7 * lb, (mg, lg, lb)
    return (f"update_encoder=True but obs detached again: encoder grad None, encoder weights moved {mb}, "
            f"inverse loss {lb:.3f}; without the extra detach: encoder moved {mg:.3f}, loss {lg:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
