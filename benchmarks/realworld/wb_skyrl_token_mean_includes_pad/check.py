import importlib.util
import os

import torch
import torch.nn.functional as F


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("wb_skyrl_token_mean_includes_pad_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _widen(ids, targets, extra, pad):
    actions, adv, mask = targets
    n = ids.shape[0]
    ids2 = torch.cat([ids, torch.full((n, extra), pad)], 1)
    act2 = torch.cat([actions, torch.full((n, extra), pad)], 1)
    mask2 = torch.cat([mask, torch.zeros(n, extra)], 1)
    return ids2, (act2, adv, mask2)


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    (ids,), targets = t["batch"]
    width = ids.shape[1]
    ids_w, targets_w = _widen(ids, targets, width, mod.PAD)   # same rollouts, padded to 2x width
    with torch.no_grad():
        narrow = loss_fn(model(ids), targets).item()
        wide = loss_fn(model(ids_w), targets_w).item()
        actions, adv, mask = targets
        logp = F.log_softmax(model(ids), -1).gather(-1, actions.unsqueeze(-1)).squeeze(-1)
        real_mean = ((-adv[:, None] * logp * mask).sum() / mask.sum()).item()
    pad_share = 1 - mask.mean().item()
    ratio = narrow / wide
    assert pad_share > 0.4, pad_share
    assert abs(ratio - 2.0) < 0.05, ratio
    assert abs(narrow - real_mean) > 0.2 * abs(real_mean), (narrow, real_mean)
    return (f"{pad_share:.0%} of positions are padding; same rollouts padded to 2x width change the loss "
            f"from {narrow:.4f} to {wide:.4f} (x{ratio:.2f}); mean over real tokens is {real_mean:.4f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
