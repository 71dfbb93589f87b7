import importlib.util
import os

import torch
import torch.nn.functional as F


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_a_yi_sft_pad_in_loss_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    (ids,), labels = t["batch"]
    opt = t["optimizer"](model.parameters())
    for _ in range(25):
        opt.zero_grad()
        loss_fn(model(ids), labels).backward()
        opt.step()
    with torch.no_grad():
        logits = model(ids)
        reported = loss_fn(logits, labels).item()
        real = labels != 0
        real_loss = F.cross_entropy(logits[real], labels[real]).item()
    pad_share = 1 - real.float().mean().item()
    assert pad_share > 0.6
    assert real_loss > 2 * reported, (real_loss, reported)
    return (f"{pad_share:.0%} of label positions are padding; reported loss {reported:.3f} "
            f"vs {real_loss:.3f} on real tokens only")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny tensors: thread start-up costs more than the math
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
