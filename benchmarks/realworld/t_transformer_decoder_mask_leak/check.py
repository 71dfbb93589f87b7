"""Next-token accuracy on i.i.d. random tokens (chance 1/20) and whether position t sees token t+1."""

import importlib.util
from pathlib import Path

import torch

_HERE = Path(__file__).resolve().parent


def _check() -> str:
    spec = importlib.util.spec_from_file_location("t_mask_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    t = mod.make_target()
    model = t["model"]
    ids, _ = t["batch"]
    opt = t["optimizer"](model.parameters())
    for _ in range(150):
        loss = t["loss_fn"](model(ids), ids)
        opt.zero_grad()
        loss.backward()
        opt.step()
    val, _ = t["val_data"][0]
    with torch.no_grad():
        acc = t["metric_fn"](model(val), val)
        a = model(val[:1])[0, 3]
        v2 = val[:1].clone()
        v2[0, 4] = (v2[0, 4] + 1) % mod.VOCAB
        b = model(v2)[0, 3]
    dep = (a - b).abs().max().item()
    assert acc > 0.5, acc
    assert dep > 1e-3, dep
    return (f"held-out next-token accuracy {acc:.2f} on i.i.d. random tokens (chance {1/mod.VOCAB:.2f}), loss {loss.item():.3f}; "
            f"logits at position 3 change by {dep:.3f} when token 4 changes")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
