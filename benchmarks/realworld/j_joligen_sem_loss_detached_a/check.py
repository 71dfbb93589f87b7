import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_j_joligen_sem_loss_detached_a_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _sem_loss(model, x, lbl, attached):
    fake_b = x + model.g(x)
    logits = model.f_s(fake_b) if attached else model.f_s(fake_b.detach())
    return fake_b, logits, F.cross_entropy(logits, lbl)


def _train(mod, t, attached):
    torch.manual_seed(0)
    model = mod.Generator()
    opt = t["optimizer"]([p for p in model.parameters() if p.requires_grad])
    x, (_, lbl) = t["train_data"]
    first = _sem_loss(model, x, lbl, attached)[2].item()
    for _ in range(10):
        for i in range(0, len(x), 32):
            xb, yb = x[i : i + 32], lbl[i : i + 32]
            fake_b, _, sem = _sem_loss(model, xb, yb, attached)
            opt.zero_grad()
            (0.1 * F.l1_loss(fake_b, xb) + sem).backward()
            opt.step()
    with torch.no_grad():
        return first, _sem_loss(model, x, lbl, attached)[2].item()


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    b0, b1 = _train(mod, t, attached=False)
    a0, a1 = _train(mod, t, attached=True)
    assert abs(b1 - b0) < 0.02 and a1 < 0.8 * a0, (b0, b1, a0, a1)
    return f"semantic loss {b0:.3f} -> {b1:.3f} over 10 epochs as written; {a0:.3f} -> {a1:.3f} with f_s on the live output"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
