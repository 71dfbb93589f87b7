import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_d_kerasgru4rec_session_reset_after_step_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    probe_inputs, _ = t["val_data"][0]
    items, start = probe_inputs
    start = torch.ones_like(start)  # every slot begins a new session in the probed batch
    outs = []
    with torch.no_grad():
        for prev_seed in (3, 4):
            model.state.zero_()
            (prev_items, prev_start), _ = mod.click_stream(1, prev_seed)[0]
            model(prev_items, torch.zeros_like(prev_start))  # the sessions that were running before
            outs.append(model(items, start))
    diff = (outs[0] - outs[1]).abs().max().item()
    changed = (outs[0].argmax(1) != outs[1].argmax(1)).float().mean().item()
    assert diff > 0.05 and changed > 0.2, (diff, changed)
    return (f"same batch of brand-new sessions, two different preceding batches: logits differ by up to {diff:.2f}, "
            f"top-1 item changes for {100 * changed:.0f}% of rows")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
