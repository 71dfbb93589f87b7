import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("wb_nerve_seg_norm_before_split_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    (xtr, _), (xva, _), (mean, std) = mod.preprocess()
    raw, _ = mod.load_train_arrays()
    n_val = len(xva)
    raw_train, raw_val = raw[:-n_val], raw[-n_val:]
    train_mean_after = xtr.mean().item()
    # the statistics that were applied are those of train+val, not of the training rows
    pooled_gap = abs(mean.item() - raw.mean().item()) + abs(std.item() - raw.std().item())
    train_only_gap = abs(mean.item() - raw_train.mean().item())
    assert pooled_gap < 1e-5, pooled_gap
    assert train_only_gap > 0.1 * raw_train.std().item(), train_only_gap
    assert abs(train_mean_after) > 0.2, train_mean_after
    return (f"normaliser mean/std {mean.item():.3f}/{std.item():.3f} were fitted on all {len(raw)} images incl. the "
            f"{n_val} validation ones (train-only mean {raw_train.mean().item():.3f}, val-only mean {raw_val.mean().item():.3f}); "
            f"standardised training rows have mean {train_mean_after:.2f} instead of 0")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
