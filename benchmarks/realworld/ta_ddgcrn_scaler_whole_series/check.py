import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("ta_ddgcrn_scaler_whole_series_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    raw = mod.synth_series()
    (xtr, _), _, _, scaler = mod.load_splits(raw)
    T = raw.shape[0]
    n_train = T - int(T * 0.1) - int(T * 0.2)
    # perturb only the held-out (val + test) part of the raw series
    raw2 = raw.clone()
    raw2[n_train:] += 300.0
    (xtr2, _), _, _, scaler2 = mod.load_splits(raw2)
    shift = (xtr - xtr2).abs().max().item()
    train_mean = raw[:n_train].mean().item()
    assert shift > 0.1, shift
    assert abs(float(scaler.mean) - train_mean) > 5.0, (float(scaler.mean), train_mean)
    return (f"scaler mean {float(scaler.mean):.1f} vs train-period mean {train_mean:.1f}; editing only the "
            f"val/test period moves the normalised training windows by up to {shift:.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
