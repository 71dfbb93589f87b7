import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("xd_lstm_server_state_persists_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    model.train()
    for _ in range(3):
        for xb, yb in t["train_data"]:
            opt.zero_grad()
            t["loss_fn"](model(xb), yb).backward()
            opt.step()
    x, _ = t["batch"]
    request = x[:1]
    preds = torch.stack([t["eval_fn"](model, request) for _ in range(5)]).flatten()
    spread = (preds.max() - preds.min()).item()
    # the same window, after a different window was served first
    t["eval_fn"](model, x[5:6] * 3.0)
    after_other = t["eval_fn"](model, request).item()
    shift = abs(after_other - preds[-1].item())
    assert spread > 5e-3, preds
    assert shift > 2e-2, (after_other, preds[-1].item())
    return (f"same input window served 5 times in eval mode: predictions {', '.join(f'{p:.3f}' for p in preds.tolist())} "
            f"(spread {spread:.3f}); serving another window first moves it by {shift:.3f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
