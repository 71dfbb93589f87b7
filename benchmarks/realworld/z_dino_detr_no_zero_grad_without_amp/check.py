"""After backward in the fp32 loop, is .grad the gradient of the current batch? Compare with autograd.grad."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("z_dino_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _run(amp, steps=8):
    torch.manual_seed(0)
    model = _t.TinyDetector()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=1e-4)
    g = torch.Generator().manual_seed(0)
    batches = [_t.make_batch(g) for _ in range(4)]
    params = [p for p in model.parameters()]
    rel_err, pre_clip = [], []
    orig_clip = torch.nn.utils.clip_grad_norm_

    for i in range(steps):
        images, targets = batches[i % 4]
        fresh = torch.autograd.grad(_t.detection_loss(model(images), targets), params)
        fresh_norm = torch.sqrt(sum((f ** 2).sum() for f in fresh))

        def spy(ps, max_norm, *a, **k):  # look at .grad just before clipping
            got = [p.grad for p in params]
            diff = torch.sqrt(sum(((x - f) ** 2).sum() for x, f in zip(got, fresh)))
            rel_err.append(float(diff / fresh_norm))
            n = orig_clip(ps, max_norm, *a, **k)
            pre_clip.append(float(n))
            return n

        torch.nn.utils.clip_grad_norm_ = spy
        try:
            _t.train_step(model, batches[i % 4], opt, _t.detection_loss, amp=amp)
        finally:
            torch.nn.utils.clip_grad_norm_ = orig_clip
    return rel_err, pre_clip


def _check() -> str:
    err_bug, norm_bug = _run(False)
    err_ok, norm_ok = _run(True)
    assert err_bug[0] < 1e-5 and min(err_bug[1:]) > 0.1, err_bug
    assert max(err_ok) < 1e-5, err_ok
    mean_bug, mean_ok = sum(norm_bug[1:]) / len(norm_bug[1:]), sum(norm_ok[1:]) / len(norm_ok[1:])
    assert mean_bug > 1.1 * mean_ok, (mean_bug, mean_ok)
    return (f"fp32 loop: .grad differs from the batch's own gradient by {min(err_bug[1:]):.0%}-{max(err_bug[1:]):.0%} of its norm "
            f"from iteration 2 on (mean pre-clip norm {mean_bug:.3f}); zeroing loop: max diff {max(err_ok):.0e} "
            f"(mean pre-clip norm {mean_ok:.3f})")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
