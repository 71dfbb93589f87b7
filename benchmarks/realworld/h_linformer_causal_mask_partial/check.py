import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_h_linformer_causal_mask_partial_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    ids = t["batch"][0]
    changed = ids.clone()
    changed[:, -1] = (changed[:, -1] + 1) % mod.VOCAB
    with torch.no_grad():
        leak = (model(ids)[:, 0] - model(changed)[:, 0]).abs().max().item()
    opt = t["optimizer"](model.parameters())
    x, _ = t["train_data"]
    first = None
    for _ in range(12):
        for i in range(0, len(x), 32):
            loss = t["loss_fn"](model(x[i : i + 32]), x[i : i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
            first = loss.item() if first is None else first
    assert leak > 1e-4, leak
    assert first > 2.5 and loss.item() < 0.6 * math.log(mod.VOCAB), (first, loss.item())
    return f"first-position logits move by {leak:.2e} when only the last token changes; LM loss on random tokens {first:.2f} -> {loss.item():.2f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
