import importlib.util
import os

import torch
import torch.nn.functional as F


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("td_nhwc_test_reshape_to_nchw_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    xtr, ytr = t["train_data"]
    xte, yte = t["val_data"]
    opt = t["optimizer"](model.parameters())
    g = torch.Generator().manual_seed(0)
    for _ in range(300):
        sel = torch.randint(0, len(ytr), (64,), generator=g)
        opt.zero_grad()
        F.cross_entropy(model(xtr[sel]), ytr[sel]).backward()
        opt.step()
    raw, _ = mod.decode_images(256, seed=2)
    proper = raw.permute(0, 3, 1, 2) / 255.0
    with torch.no_grad():
        acc_train = mod.accuracy(model(xtr), ytr)
        acc_test = mod.accuracy(model(xte), yte)
        acc_proper = mod.accuracy(model(proper), yte)
    assert acc_train > 0.85, acc_train
    assert acc_test < 0.7, acc_test
    assert not torch.allclose(xte, proper)
    return (f"train acc {acc_train:.2f}; test acc {acc_test:.2f} through the test-set conversion "
            f"vs {acc_proper:.2f} for the same test images laid out channel-first by axis permutation")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
