import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_e_bertclassifier_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, softmax: bool):
    torch.manual_seed(0)
    model = mod.TextClassifier()
    if not softmax:
        model.softmax = torch.nn.Identity()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x, y = mod.texts(2000, 1)
    vx, vy = mod.texts(1000, 2)
    for _ in range(5):
        total, n = 0.0, 0
        for i in range(0, len(x), 32):
            loss = F.cross_entropy(model(x[i : i + 32]), y[i : i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total, n = total + loss.item(), n + 1
    with torch.no_grad():
        pred = model(vx).argmax(1)
    rare_pred = (pred == 2).float().mean().item()
    rare_true = (vy == 2).float().mean().item()
    return total / n, rare_pred, rare_true


def _check() -> str:
    mod = _load()
    loss_bug, rare_bug, rare_true = _run(mod, True)
    loss_ok, rare_ok, _ = _run(mod, False)
    assert loss_bug > 0.7 and loss_bug > 1.4 * loss_ok, (loss_bug, loss_ok)
    assert rare_bug < 0.8 * rare_true and rare_ok > 0.85 * rare_true, (rare_bug, rare_ok, rare_true)
    return (
        f"epoch-5 train loss {loss_bug:.2f} with softmax before cross_entropy vs {loss_ok:.2f} on logits; "
        f"rare class predicted {rare_bug:.3f} vs {rare_ok:.3f} (true share {rare_true:.3f})"
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
