import importlib.util
from pathlib import Path

import torch


def _target():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("target_" + p.parent.name, p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m.make_target()


def _check() -> str:
    t = _target()
    model, loss_fn = t["model"], t["loss_fn"]
    xtr, ytr = t["train_data"]
    xva, yva = t["val_data"]
    opt = t["optimizer"](model.parameters())
    torch.manual_seed(1)
    for epoch in range(15):
        model.train()
        for i in range(0, 512, 64):
            opt.zero_grad()
            loss_fn(model(xtr[i:i + 64]), ytr[i:i + 64]).backward()
            opt.step()
    acc = lambda out: (out.argmax(1) == yva).float().mean().item()
    a1, a2 = acc(t["eval_fn"](model, xva)), acc(t["eval_fn"](model, xva))
    o1, o2 = t["eval_fn"](model, xva), t["eval_fn"](model, xva)
    model.eval()
    with torch.no_grad():
        ae = acc(model(xva))
        e1, e2 = model(xva), model(xva)
    assert not torch.allclose(o1, o2), "validation outputs are deterministic"
    assert torch.allclose(e1, e2)
    assert ae > max(a1, a2) + 0.01, (a1, a2, ae)
    return f"val() without eval(): acc {a1:.3f} / {a2:.3f} on two calls (outputs differ); eval mode: {ae:.3f}, deterministic"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

