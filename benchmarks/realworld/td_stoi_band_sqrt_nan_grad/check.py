import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("td_stoi_band_sqrt_nan_grad_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, (noisy, clean) = t["model"], t["batch"]
    opt = t["optimizer"](model.parameters())
    opt.zero_grad()
    loss = t["loss_fn"](model(noisy), clean)
    loss.backward()
    n_nan = sum(int(torch.isnan(p.grad).sum()) for p in model.parameters())
    n_total = sum(p.numel() for p in model.parameters())
    opt.step()
    nan_after = any(torch.isnan(p).any().item() for p in model.parameters())
    assert torch.isfinite(loss), loss
    assert n_nan > 0, n_nan
    assert nan_after
    return (f"loss {loss.item():.4f} is finite, but {n_nan}/{n_total} gradient entries are NaN and the weights "
            f"are NaN after one optimizer step")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
