import importlib.util
import os

import torch
import torch.nn.functional as F


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("wd_vlm_align_projector_tiny_lr_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _align_loss(model, x, teacher):
    with torch.no_grad():
        _, proj = model(x)
        return 1.0 - F.cosine_similarity(proj, teacher, dim=-1).mean().item()


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    x, (labels, teacher) = t["batch"]
    opt = t["optimizer"](model.parameters())
    w0 = [p.detach().clone() for p in model.align_projector.parameters()]
    start = _align_loss(model, x, teacher)
    for _ in range(10):
        for xb, yb in t["train_data"]:
            opt.zero_grad()
            loss_fn(model(xb), yb).backward()
            opt.step()
    end = _align_loss(model, x, teacher)
    rel_move = max(((p - q).norm() / q.norm()).item() for p, q in zip(model.align_projector.parameters(), w0))
    rel_drop = (start - end) / start
    assert rel_drop < 0.01, (start, end)
    assert rel_move < 1e-3, rel_move
    return (f"after 80 optimizer steps the alignment loss went {start:.4f} -> {end:.4f} ({100 * rel_drop:.2f}% drop); "
            f"projector weights moved by at most {rel_move:.1e} of their norm")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
