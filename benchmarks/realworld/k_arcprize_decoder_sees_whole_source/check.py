import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_k_arcprize_decoder_sees_whole_source_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    model.eval()
    src = t["batch"][0][:4].clone()
    with torch.no_grad():
        base = model(src)
        changed = src.clone()
        changed[:, -1] = (changed[:, -1] + 1) % mod.N_TOKENS  # alter only the last token
        moved = (model(changed)[:, :-1] - base[:, :-1]).abs().max().item()  # predictions made before it
    model.train()
    opt = t["optimizer"](model.parameters())
    x, _ = t["train_data"]
    for step in range(200):
        i = (step * 32) % len(x)
        opt.zero_grad()
        loss = t["loss_fn"](model(x[i : i + 32]), x[i : i + 32])
        loss.backward()
        opt.step()
    xv, _ = t["val_data"]
    model.eval()
    with torch.no_grad():
        val = t["loss_fn"](model(xv), xv).item()
    chance = math.log(mod.N_TOKENS)
    assert moved > 1e-4 and val < 0.3 * chance, (moved, val)
    return (
        f"changing the last token moves earlier predictions by {moved:.3f}; on uniformly random tokens "
        f"(entropy {chance:.2f} nats) val loss reaches {val:.3f} after 200 steps"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
