"""Truncation leaves no labelled token: every logged loss is 0.0 and the weights never move."""

import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_i_sft_truncated_completion_zero_loss_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _load().make_target()
    model, (ids, labels) = t["model"], t["train_data"]
    before = [p.detach().clone() for p in model.parameters()]
    opt = t["optimizer"](model.parameters())
    losses = []
    for i in range(0, len(ids), 16):
        loss = t["loss_fn"](model(ids[i : i + 16]), labels[i : i + 16])
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    moved = max((p.detach() - b).abs().max().item() for p, b in zip(model.parameters(), before))
    assert all(v == 0.0 for v in losses) and moved == 0.0, (losses, moved)
    assert int((labels != -100).sum()) == 0
    return f"{len(losses)} steps: every logged loss 0.0, largest weight change {moved:.1g}, 0 labelled tokens"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
