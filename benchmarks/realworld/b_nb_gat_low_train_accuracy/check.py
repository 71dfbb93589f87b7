import torch
import torch.nn as nn
import torch.nn.functional as F


def _train(p_drop, steps=300):
    torch.manual_seed(0)
    d, n_cls = 32, 4
    w = torch.randn(d, n_cls)
    x = torch.randn(600, d)
    y = (x @ w).argmax(1)
    xtr, ytr, xva, yva = x[:140], y[:140], x[140:], y[140:]  # small labelled set, Cora-like
    model = nn.Sequential(nn.Dropout(p_drop), nn.Linear(d, 16), nn.ELU(), nn.Dropout(p_drop), nn.Linear(16, n_cls))
    opt = torch.optim.Adam(model.parameters(), lr=5e-3, weight_decay=5e-4)
    tr_acc = []
    for _ in range(steps):
        model.train()
        opt.zero_grad()
        out = model(xtr)
        F.cross_entropy(out, ytr).backward()
        opt.step()
        tr_acc.append(float((out.argmax(1) == ytr).float().mean()))
    model.eval()
    with torch.no_grad():
        va_acc = float((model(xva).argmax(1) == yva).float().mean())
    return sum(tr_acc[-50:]) / 50, sum(tr_acc[100:150]) / 50, va_acc


def _check() -> str:
    tr_late, tr_mid, va = _train(p_drop=0.6)
    tr_late_0, _, _ = _train(p_drop=0.0)
    assert tr_late < 0.7 and abs(tr_late - tr_mid) < 0.08, (tr_late, tr_mid)
    assert va >= tr_late and tr_late_0 > 0.9, (va, tr_late_0)
    return (f"with dropout 0.6 the train-mode accuracy plateaus at {tr_late:.2f} (was {tr_mid:.2f} 150 steps "
            f"earlier), eval-mode val accuracy {va:.2f} is not lower; the same net without dropout reaches "
            f"{tr_late_0:.2f} train accuracy")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
