import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_i_videoswin_features_vary_b_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _load().make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for i in range(0, len(x), 16):
        opt.zero_grad()
        t["loss_fn"](model(x[i : i + 16]), y[i : i + 16]).backward()
        opt.step()
    clip = t["val_data"][0][:4]
    torch.manual_seed(1)
    f1 = t["eval_fn"](model, (clip,))
    f2 = t["eval_fn"](model, (clip,))
    rel = ((f1 - f2).norm() / f1.norm()).item()
    model.eval()
    g1, g2 = t["eval_fn"](model, (clip,)), t["eval_fn"](model, (clip,))
    assert rel > 0.05 and torch.equal(g1, g2), (rel,)
    return (
        f"two feature extractions of the same clips differ by {100 * rel:.0f}% (relative norm); identical in eval mode"
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
