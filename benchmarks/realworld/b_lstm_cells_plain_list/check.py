import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_b_lstm_cells_plain_list_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, (x, y), loss_fn = t["model"], t["batch"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    cell_w = model.lstms[0].weight_ih.detach().clone()
    for _ in range(20):
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()
    n_registered = sum(p.numel() for p in model.parameters())
    n_total = n_registered + sum(p.numel() for c in model.lstms for p in c.parameters())
    unchanged = torch.equal(cell_w, model.lstms[0].weight_ih)
    grad_seen = model.lstms[0].weight_ih.grad is not None
    assert unchanged and n_registered < n_total / 5, (unchanged, n_registered, n_total)
    return (f"model.parameters() exposes {n_registered} of {n_total} weights; after 20 Adam steps the LSTM "
            f"cell weights are unchanged (grad populated: {grad_seen})")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
