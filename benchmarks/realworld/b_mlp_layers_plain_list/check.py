import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_b_mlp_layers_plain_list_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, (x, y), loss_fn = t["model"], t["batch"], t["loss_fn"]
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    w0 = model._layers[0].weight.detach().clone()
    for _ in range(30):
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()
    n_reg = sum(p.numel() for p in model.parameters())
    n_hidden = sum(p.numel() for layer in model._layers for p in layer.parameters())
    in_state = any(k.startswith("_layers") for k in model.state_dict())
    assert torch.equal(w0, model._layers[0].weight) and not in_state
    return (f"only {n_reg} registered parameters; {n_hidden} hidden-layer weights are missing from "
            f"state_dict and unchanged after 30 Adam steps")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
