"""Train on the target's data in order (batches of 16): the batch of long prompts gives a NaN loss, and the epoch mean is NaN."""

import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_e_cosmosrl_sft_all_labels_masked_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    losses = []
    for i in range(0, len(x), 16):
        opt.zero_grad()
        loss = t["loss_fn"](model(x[i : i + 16]), y[i : i + 16])
        loss.backward()
        opt.step()
        losses.append(loss.item())
    bx, by = t["batch"]
    assert (by[:, 1:] == mod.IGNORE).all()
    assert all(math.isfinite(v) for v in losses[:6]), losses
    assert math.isnan(losses[6]), losses
    epoch_mean = sum(losses) / len(losses)
    assert math.isnan(epoch_mean), epoch_mean
    return f"SFT step losses {losses[0]:.2f} ... {losses[5]:.2f}, then {losses[6]} on the all-masked batch; epoch mean {epoch_mean}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
