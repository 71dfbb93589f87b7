"""Score the same sentence twice with the target's model; the second score differs because state carried over,
and the validation predictions depend on the order the sentences are fed in."""
import importlib.util
import os

import torch


def _load():
    p = os.path.join(os.path.dirname(os.path.abspath(__file__)), "target.py")
    s = importlib.util.spec_from_file_location("v_bytestate_target", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def _check() -> str:
    t = _load().make_target()
    model = t["model"]
    model.eval()
    xva, _ = t["val_data"]
    with torch.no_grad():
        s = xva[:1]
        a = model(s)[0, 1].item()
        b = model(s)[0, 1].item()
        model.reset()
        fwd = torch.cat([model(xva[i:i + 1]) for i in range(len(xva))])
        model.reset()
        perm = torch.randperm(len(xva), generator=torch.Generator().manual_seed(1))
        rev = torch.empty_like(fwd)
        for i in perm.tolist():
            rev[i] = model(xva[i:i + 1])[0]
    diff = (fwd - rev).abs().max().item()
    assert abs(a - b) > 1e-3, (a, b)
    assert diff > 1e-3, diff
    return (f"same sentence scored twice: logit {a:.4f} then {b:.4f}; val logits change by up to {diff:.3f} "
            f"when the sentence order is shuffled")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
