"""Teacher-student consistency on unlabeled images for the detector head of target.py: a class term KL(teacher || student)
and a box term compared with MSE on box regressions in pixel units, added with equal weights. The MSE term
is ~1e4 times the KL term, so the class consistency gets almost no share of the gradient and does not
improve, and the large step sizes it forces on the shared features end in non-finite values."""

import importlib.util
import math
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_k_humble_teacher_mse_dwarfs_kl_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, box_term):
    t = mod.make_target()
    feats, (t_logits, t_boxes) = t["train_data"]
    student = t["model"]
    opt = t["optimizer"](student.parameters())
    kl_hist, mse_hist = [], []
    for step in range(300):
        i = (step * 128) % len(feats)
        logits, boxes = student(feats[i : i + 128])
        kl = F.kl_div(F.log_softmax(logits, -1), F.softmax(t_logits[i : i + 128], -1), reduction="batchmean")
        scale = 1.0 if box_term == "pixels" else 600.0          # 600 px images
        mse = F.mse_loss(boxes, t_boxes[i : i + 128] / scale)
        loss = kl + mse
        kl_hist.append(kl.item())
        mse_hist.append(mse.item())
        if not math.isfinite(loss.item()):
            break
        opt.zero_grad()
        loss.backward()
        opt.step()
    return kl_hist, mse_hist


def _check() -> str:
    mod = _load()
    kl_bad, mse_bad = _run(mod, "pixels")
    kl_ok, mse_ok = _run(mod, "normalised")
    ratio = mse_bad[0] / kl_bad[0]
    assert ratio > 1e3, ratio
    finite = all(math.isfinite(v) for v in kl_bad + mse_bad)
    kl_bad_end = kl_bad[-1] if math.isfinite(kl_bad[-1]) else float("nan")
    assert (not finite) or kl_bad_end > 0.8 * kl_bad[0], (kl_bad[0], kl_bad_end)
    assert kl_ok[-1] < 0.5 * kl_ok[0] and mse_ok[-1] < mse_ok[0], (kl_ok, mse_ok[0], mse_ok[-1])
    tail = f"loss non-finite at step {len(kl_bad) - 1}" if not finite else f"class KL {kl_bad[0]:.2f} -> {kl_bad_end:.2f}"
    return (
        f"at step 0 the box MSE is {mse_bad[0]:.0f} vs class KL {kl_bad[0]:.2f} ({ratio:.0e}x); with equal weights: "
        f"{tail}; boxes in image-normalised units: KL {kl_ok[0]:.2f} -> {kl_ok[-1]:.2f}, box MSE {mse_ok[0]:.3f} -> {mse_ok[-1]:.4f}"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
