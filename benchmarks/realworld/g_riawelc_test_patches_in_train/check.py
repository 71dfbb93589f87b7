import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_g_riawelc_test_patches_in_train_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit(mod, x, y):
    torch.manual_seed(0)
    model = mod.PatchNet()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(15):
        perm = torch.randperm(len(x))
        for i in range(0, len(x), 64):
            b = perm[i : i + 64]
            opt.zero_grad()
            F.cross_entropy(model(x[b]), y[b]).backward()
            opt.step()
    return model


def _acc(model, x, y):
    with torch.no_grad():
        return (model(x).argmax(1) == y).float().mean().item()


def _check() -> str:
    mod = _load()
    (x, y), (tx, ty) = mod.shipped_split()
    same = (tx[:, None, :] == x[None, :, :]).all(-1).any(1).float().mean().item()
    shipped = _acc(_fit(mod, x, y), tx, ty)
    # re-split by radiograph: train on 30 radiographs, test on 10 unseen ones
    centres, labels = mod.radiographs(40, 1)
    px, py, src = mod.patches(centres, labels, 20, 2)
    tr, te = src < 30, src >= 30
    clean = _acc(_fit(mod, px[tr], py[tr]), px[te], py[te])
    assert same == 1.0, same
    assert shipped > 0.9 and clean < shipped - 0.15, (shipped, clean)
    return f"{same:.0%} of test patches are in train; test accuracy {shipped:.2f} on the shipped split, {clean:.2f} split by radiograph"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
