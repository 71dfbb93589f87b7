import importlib.util
from pathlib import Path

import torch


def _target():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("target_" + p.parent.name, p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m.make_target()


def _fit(model, x, y, opt):
    lf = torch.nn.CrossEntropyLoss()
    for epoch in range(30):
        for i in range(0, len(x), 32):
            opt.zero_grad()
            lf(model(x[i:i + 32]), y[i:i + 32]).backward()
            opt.step()
    with torch.no_grad():
        return lf(model(x), y).item(), (model(x).argmax(1) == y).float().mean().item()


def _check() -> str:
    t = _target()
    x, y = t["train_data"]
    torch.manual_seed(1)
    raw_loss, raw_acc = _fit(t["model"], x, y, t["optimizer"](t["model"].parameters()))
    torch.manual_seed(1)
    m2 = torch.nn.Linear(2, 3)
    xs = (x - x.mean(0)) / x.std(0)
    std_loss, std_acc = _fit(m2, xs, y, torch.optim.SGD(m2.parameters(), lr=1e-2))
    assert raw_loss > std_loss + 0.2 and std_acc > raw_acc + 0.1, (raw_loss, raw_acc, std_loss, std_acc)
    return f"raw features (age ~31, 0/1): loss {raw_loss:.2f}, acc {raw_acc:.2f}; standardized: loss {std_loss:.2f}, acc {std_acc:.2f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

