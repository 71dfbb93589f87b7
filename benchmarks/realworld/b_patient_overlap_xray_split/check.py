import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_b_patient_overlap_xray_split_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _nn_acc(xtr, ytr, xva, yva):
    nearest = torch.cdist(xva, xtr).argmin(dim=1)
    return float((ytr[nearest] == yva).float().mean())


def _check() -> str:
    mod = _load()
    x, y, pid = mod.make_images()
    _, _, tr_idx, va_idx = mod.image_level_split(x, y)
    shared = set(pid[va_idx].tolist()) & set(pid[tr_idx].tolist())
    frac = len(shared) / len(set(pid[va_idx].tolist()))
    leaky = _nn_acc(x[tr_idx], y[tr_idx], x[va_idx], y[va_idx])
    # patient-disjoint split for comparison
    val_pat = pid < 15
    clean = _nn_acc(x[~val_pat], y[~val_pat], x[val_pat], y[val_pat])
    assert frac > 0.8 and leaky > clean + 0.25, (frac, leaky, clean)
    return (f"{frac:.0%} of validation patients also appear in train; 1-NN val acc {leaky:.2f} on the "
            f"image-level split vs {clean:.2f} on a patient-level split")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
