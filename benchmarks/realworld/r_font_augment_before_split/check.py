"""Train the target's model on its split and score its test split; then redo the split on base patches before
augmenting (the honest protocol). Test accuracy is high only when augmented copies of a patch sit on both sides."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("r_font_augment_before_split_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit_and_score(mod, train, test):
    torch.manual_seed(0)
    model = mod.DeepFontLite()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    X, Y = train
    g = torch.Generator().manual_seed(3)
    for _ in range(25):
        perm = torch.randperm(len(X), generator=g)
        for i in range(0, len(X), 64):
            idx = perm[i:i + 64]
            loss = F.cross_entropy(model(X[idx]), Y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        return (model(test[0]).argmax(1) == test[1]).float().mean().item()


def _honest_splits(mod):
    g = torch.Generator().manual_seed(0)
    xb, yb = mod._base_patches(g)
    perm = torch.randperm(mod.N_BASE, generator=g)
    n_tr = int(0.8 * mod.N_BASE)
    parts = []
    for ids in (perm[:n_tr], perm[n_tr:]):
        xs = [mod.augment(xb[ids], g) for _ in range(mod.N_AUG)]
        parts.append((torch.cat(xs), yb[ids].repeat(mod.N_AUG)))
    return parts


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    leaky = _fit_and_score(mod, t["train_data"], t["val_data"])
    honest = _fit_and_score(mod, *_honest_splits(mod))
    chance = 1 / mod.N_FONTS
    assert leaky > 0.6, leaky
    assert honest < 0.35 and leaky - honest > 0.35, (leaky, honest)
    return (f"test accuracy {leaky:.2f} when augmented copies are split at random vs {honest:.2f} when patches are "
            f"split before augmenting (chance {chance:.2f})")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
