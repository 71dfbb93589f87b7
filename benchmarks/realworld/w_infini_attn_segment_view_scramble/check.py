import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_w_infini_attn_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _future_leak(model, ids):
    model.eval()
    with torch.no_grad():
        a = model(ids)
        ids2 = ids.clone()
        ids2[:, 25] = (ids2[:, 25] + 7) % 50  # edit one token in the last segment
        b = model(ids2)
    return (a[:, :8] - b[:, :8]).abs().max().item()  # first segment's logits


def _train(model, ids, loss_fn, steps=80):
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_fn(model(ids), ids)
        loss.backward()
        opt.step()
    return loss.item()


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    ids, _ = t["batch"]
    torch.manual_seed(1)
    bad = mod.SegmentAttentionLM(fixed=False)
    torch.manual_seed(1)
    good = mod.SegmentAttentionLM(fixed=True)
    leak_bad, leak_good = _future_leak(bad, ids), _future_leak(good, ids)
    torch.manual_seed(2)
    data = torch.randint(0, 50, (16, 32))
    torch.manual_seed(1)
    lb = _train(mod.SegmentAttentionLM(fixed=False), data, t["loss_fn"])
    torch.manual_seed(1)
    lg = _train(mod.SegmentAttentionLM(fixed=True), data, t["loss_fn"])
    assert leak_bad > 1e-4 and leak_good < 1e-6, (leak_bad, leak_good)
    assert lb < 0.6 * lg, (lb, lg)
    return (f"editing token 25 (last segment) moves first-segment logits by {leak_bad:.3g} (permute version: {leak_good:.1g}); "
            f"loss on random tokens after 80 steps {lb:.2f} vs {lg:.2f} with the permuted split")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
