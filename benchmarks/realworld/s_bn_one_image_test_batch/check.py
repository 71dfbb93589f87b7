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
    model = t["model"]
    xtr, ytr = t["train_data"]
    xva, yva = t["val_data"]
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for ep in range(40):
        for i in range(0, 256, 64):
            opt.zero_grad()
            t["loss_fn"](model(xtr[i:i + 64]), ytr[i:i + 64]).backward()
            opt.step()
    model.train()
    full = t["eval_fn"](model, xva)
    part = t["eval_fn"](model, xva[:4])
    diff = (full[:4] - part).abs().max().item()
    yb = yva[yva == 0][:8]
    xb = xva[yva == 0][:8]
    acc_full = t["metric_fn"](full, yva)
    acc_onecls = t["metric_fn"](t["eval_fn"](model, xb), yb)
    model.eval()
    with torch.no_grad():
        acc_eval = t["metric_fn"](model(xb), yb)
    assert diff > 1e-2, diff
    assert acc_onecls < acc_eval, (acc_onecls, acc_eval)
    return (f"same images, batch 64 vs batch 4: logits differ by {diff:.3f}; single-class batch acc {acc_onecls:.2f} "
            f"in train-mode test vs {acc_eval:.2f} with eval(); full-batch acc {acc_full:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

