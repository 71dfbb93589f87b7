import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_q_metal_lstm_embed_freeze_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    x, y = t["batch"]
    emb = model.input_module.embeddings
    assert model.input_module.freeze
    row = x[0, 0].item()
    before = emb.weight[row].detach().clone()
    opt = t["optimizer"](model.parameters())
    for _ in range(20):
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()
    moved = (emb.weight[row].detach() - before).abs().max().item()
    assert moved > 1e-2, moved
    return f"freeze=True, yet embedding row {row} moved by up to {moved:.3f} after 20 Adam steps"


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
