import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_b_adv_loss_converted_to_float_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, (x, y), loss_fn = t["model"], t["batch"], t["loss_fn"]
    loss = loss_fn(model(x), y)
    loss.backward()
    align_grad = model.align.weight.grad
    enc_grad = model.encoder[0].weight.grad
    recon_only = torch.nn.functional.l1_loss(model(x)[0], y[0])
    adv_part = float(loss.detach() - recon_only.detach())
    assert adv_part > 0.1 and align_grad is None and enc_grad is not None, (adv_part, align_grad)
    return (f"adversarial term adds {adv_part:.3f} to the loss value, yet the alignment layer gets no gradient "
            f"(grad={align_grad})")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
