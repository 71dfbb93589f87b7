"""Train the target's Cox net briefly, then score the test set with the target's eval routine (dropout still active)."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("w_torchsurv_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _check() -> str:
    tg = _t.make_target()
    model, loss_fn = tg["model"], tg["loss_fn"]
    opt = tg["optimizer"](model.parameters())
    x_tr, y_tr = tg["train_data"]
    x_te, y_te = tg["val_data"]
    torch.manual_seed(1)
    for _ in range(150):
        for i in range(0, 512, 128):
            opt.zero_grad()
            loss_fn(model(x_tr[i:i + 128]), y_tr[i:i + 128]).backward()
            opt.step()
    cis, preds = [], []
    for _ in range(5):
        out = tg["eval_fn"](model, x_te)
        preds.append(out)
        cis.append(tg["metric_fn"](out, y_te))
    spread = max(cis) - min(cis)
    pdiff = (preds[0] - preds[1]).abs().max().item()
    model.eval()
    with torch.no_grad():
        ci_eval = _t.concordance(model(x_te), y_te)
        ci_eval2 = _t.concordance(model(x_te), y_te)
    assert pdiff > 0.05 and spread > 0.005, (pdiff, cis)
    assert ci_eval == ci_eval2 and ci_eval > sum(cis) / len(cis), (ci_eval, cis)
    return (f"5 test evaluations without eval(): C-index {min(cis):.3f}..{max(cis):.3f}, same patient's log hazard "
            f"moves by up to {pdiff:.2f}; with model.eval(): {ci_eval:.3f} every time")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
