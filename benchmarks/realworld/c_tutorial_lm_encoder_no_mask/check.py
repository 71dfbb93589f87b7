import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_c_tutorial_lm_encoder_no_mask_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for step in range(300):
        i = (step * 32) % 2048
        opt.zero_grad()
        loss = t["loss_fn"](model(x[i : i + 32]), y[i : i + 32])
        loss.backward()
        opt.step()
    vx, vy = t["val_data"]
    model.eval()
    with torch.no_grad():
        val = float(t["loss_fn"](model(vx), vy))
        probe = vx[:1].clone()
        a = model(probe)[0, 3]
        probe[0, 4] = (probe[0, 4] + 1) % mod.VOCAB
        b = model(probe)[0, 3]
    chance = math.log(mod.VOCAB)
    assert val < 0.6 * chance, (val, chance)
    assert float((a - b).abs().max()) > 1e-3
    return (
        f"random tokens: validation loss {val:.2f} vs chance {chance:.2f} (perplexity {math.exp(val):.1f}); "
        f"position 3's logits change when token 4 changes"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
