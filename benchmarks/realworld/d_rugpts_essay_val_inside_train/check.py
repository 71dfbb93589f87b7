import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_d_rugpts_essay_val_inside_train_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(300):
        opt.zero_grad()
        t["loss_fn"](model(x), y).backward()
        opt.step()
    vx, vy = t["val_data"]
    fx, fy = mod.essay_windows(200, 7)  # essays the model never saw
    with torch.no_grad():
        ppl_val = t["metric_fn"](model(vx), vy)
        ppl_fresh = t["metric_fn"](model(fx), fy)
    assert ppl_val < 4 and ppl_fresh > 16, (ppl_val, ppl_fresh)
    return f"validation perplexity {ppl_val:.1f}, perplexity on unseen windows {ppl_fresh:.1f} (vocab {mod.VOCAB})"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
