"""Train the target's CNN on its small cell-image set: training accuracy reaches ~1.0 while validation accuracy
stays far below it and validation loss climbs after its minimum - overfitting, with nothing broken."""
import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _load_target():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("v_chainer_cells_target", p)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def _check() -> str:
    t = _load_target()
    tgt = t.make_target()
    model = tgt["model"]
    opt = tgt["optimizer"](model.parameters())
    x_tr, y_tr = tgt["train_data"]
    x_val, y_val = tgt["val_data"]
    g = torch.Generator().manual_seed(3)
    hist = []
    for epoch in range(26):
        model.train()
        perm = torch.randperm(len(x_tr), generator=g)
        for i in range(0, len(x_tr), 32):
            idx = perm[i:i + 32]
            loss = tgt["loss_fn"](model(x_tr[idx]), y_tr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            out_tr, out_val = model(x_tr), model(x_val)
        hist.append((
            (out_tr.argmax(-1) == y_tr).float().mean().item(),
            (out_val.argmax(-1) == y_val).float().mean().item(),
            F.cross_entropy(out_val, y_val).item(),
        ))
    train_acc, val_acc, val_loss = hist[-1]
    best_val_loss = min(h[2] for h in hist)
    best_val_acc = max(h[1] for h in hist)
    assert train_acc >= 0.98, hist
    assert val_acc < train_acc - 0.25 and best_val_acc > 0.5, hist
    assert val_loss > 1.08 * best_val_loss, (val_loss, best_val_loss)
    return (f"train acc {hist[0][0]:.2f} -> {train_acc:.2f}, val acc peaks {best_val_acc:.2f} and ends {val_acc:.2f}; "
            f"val loss min {best_val_loss:.3f} -> {val_loss:.3f} at the end")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
