import contextlib
import importlib.util
import io
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_l_yolov5_freeze_list_overwritten_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    with contextlib.redirect_stdout(io.StringIO()) as log:
        t = mod.make_target()
        model = t["model"]
        opt = t["optimizer"](model)
    frozen_names = [k for k, _ in model.named_parameters() if any(f in k for f in mod.FREEZE)]
    assert log.getvalue().count("freezing") >= len(frozen_names) > 0
    before = {k: v.detach().clone() for k, v in model.named_parameters() if k in frozen_names}
    x, y = t["train_data"]
    for i in range(0, len(x), 16):
        opt.zero_grad()
        t["loss_fn"](model(x[i : i + 16]), y[i : i + 16]).backward()
        opt.step()
    moved = {k: (v.detach() - before[k]).abs().mean().item() for k, v in model.named_parameters() if k in before}
    n_moved = sum(d > 0 for d in moved.values())
    assert n_moved == len(frozen_names), moved
    still_req = all(p.requires_grad for k, p in model.named_parameters() if k in before)
    return (
        f"{len(frozen_names)} backbone tensors printed as frozen, yet requires_grad={still_req} and all "
        f"{n_moved} changed after {len(x) // 16} steps (mean |dw| up to {max(moved.values()):.1e})"
    )


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
