import importlib.util
from pathlib import Path

import torch


def _target():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("_t_" + p.parent.name, p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m.make_target()



def _check() -> str:
    t = _target()
    model, (x, y) = t["model"], t["batch"]
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(300):
        opt.zero_grad()
        t["loss_fn"](model(x), y).backward()
        opt.step()
    accs = [t["metric_fn"](t["eval_fn"](model, x), y) for _ in range(5)]
    outs = [t["eval_fn"](model, x) for _ in range(2)]
    model.eval()
    with torch.no_grad():
        acc_eval = t["metric_fn"](model(x), y)
    assert not torch.allclose(outs[0], outs[1]), "eval outputs deterministic"
    assert max(accs) - min(accs) > 0.005 and acc_eval > max(accs), (accs, acc_eval)
    return f"eval in train mode: acc {min(accs):.3f}-{max(accs):.3f} across repeats; with eval(): {acc_eval:.3f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

