import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_c_tokenlearner_view_for_transpose_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _load().make_target()
    model = t["model"].eval()
    x, _ = t["batch"]
    with torch.no_grad():
        together = model(x)
        alone = torch.cat([model(x[i : i + 1]) for i in range(len(x))])
        x2 = x.clone()
        x2[1:] = torch.randn_like(x2[1:])
        row0_changed = model(x2)[0]
    gap = float((together - alone).abs().max())
    moved = float((together[0] - row0_changed).abs().max())
    assert gap > 1e-3 and moved > 1e-3, (gap, moved)
    return (
        f"eval mode: logits differ by up to {gap:.3f} between batched and one-at-a-time prediction; "
        f"row 0 moves by {moved:.3f} when only rows 1..15 change"
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
