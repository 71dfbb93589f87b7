"""Does clip 0's prediction depend on the other clips in the batch? With .view it does; with .transpose it does not."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("z_crnn_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _cross_clip_effect(transpose_fix):
    torch.manual_seed(0)
    model = _t.CRNN(transpose_fix=transpose_fix).eval()
    g = torch.Generator().manual_seed(1)
    clips, _ = _t.make_clips(4, g)
    other, _ = _t.make_clips(4, torch.Generator().manual_seed(2))
    swapped = clips.clone()
    swapped[1:] = other[1:]  # same clip 0, different companions
    with torch.no_grad():
        a = model(clips)[0]
        b = model(swapped)[0]
        alone = model(clips[:1])[0]
    return (a - b).abs().max().item(), (a - alone).abs().max().item()


def _check() -> str:
    d_bug, alone_bug = _cross_clip_effect(False)
    d_ok, alone_ok = _cross_clip_effect(True)
    assert d_bug > 1e-3 and alone_bug > 1e-3, (d_bug, alone_bug)
    assert d_ok < 1e-6 and alone_ok < 1e-6, (d_ok, alone_ok)
    return (f"with .view(T, B, F): clip 0's logits move by {d_bug:.3g} when the other 3 clips change and by {alone_bug:.3g} "
            f"when run alone; with .transpose(0, 1): {d_ok:.1e} / {alone_ok:.1e}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
