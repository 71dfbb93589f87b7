"""Train briefly, then run the target's test routine twice on the same input, before and after model.eval()."""

import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_e_pygoturn_test_dropout_active_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _load().make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    for _ in range(3):
        for (p, c), y in t["train_data"]:
            opt.zero_grad()
            t["loss_fn"](model(p, c), y).backward()
            opt.step()
    batch = t["val_data"][0]
    a, b = t["eval_fn"](model, batch), t["eval_fn"](model, batch)
    run_gap = (a - b).abs().max().item()
    model.eval()
    c, d = t["eval_fn"](model, batch), t["eval_fn"](model, batch)
    eval_gap = (c - d).abs().max().item()
    assert run_gap > 0.5, run_gap
    assert eval_gap == 0.0, eval_gap
    return f"same checkpoint, same crops, two test passes: boxes differ by up to {run_gap:.2f} px; after model.eval(): {eval_gap}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
