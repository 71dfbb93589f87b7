import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_a_iic_bn_no_running_stats_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model = t["model"].eval()
    (imgs,), _ = t["batch"]
    with torch.no_grad():
        full = model(imgs)
        half = model(imgs[:8])
        bright = model(torch.cat([imgs[:1], imgs[1:8] * 3.0]))
    d_half = (full[:8] - half).abs().max().item()
    d_mix = (half[0] - bright[0]).abs().max().item()
    assert d_half > 1e-3 and d_mix > 1e-3, (d_half, d_mix)
    return (f"in eval mode: outputs shift by {d_half:.3f} when the test batch shrinks from 32 to 8, and image 0 "
            f"shifts by {d_mix:.3f} when only its batch-mates change")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny tensors: thread start-up costs more than the math
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
