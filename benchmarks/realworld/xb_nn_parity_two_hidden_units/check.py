import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("xb_nn_parity_two_hidden_units_target",
                                                  os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit(m, model, steps=1000):
    t = m.make_target()
    t["model"] = model
    opt = t["optimizer"](model.parameters())
    for _ in range(steps):
        loss = t["train_step"](model, t["batch"], opt, t["loss_fn"])
    with torch.no_grad():
        acc = t["metric_fn"](model(t["batch"][0]), t["batch"][1])
    return loss.item(), acc


def _run() -> str:
    m = _load()
    t = m.make_target()
    width = t["model"].linear1.out_features
    narrow_loss, narrow_acc = _fit(m, t["model"])
    wide_loss, wide_acc = _fit(m, m.build(hidden1=width + 1))
    assert width == 2
    assert narrow_loss > 0.3 and narrow_acc < 1.0, (narrow_loss, narrow_acc)
    assert wide_loss < 0.05 and wide_acc == 1.0, (wide_loss, wide_acc)
    return (f"4-2-2-1 net stalls at BCE {narrow_loss:.3f} ({narrow_acc:.0%} of the 4 points) after 1000 SGD steps; "
            f"the same loop with 3 first-layer units reaches {wide_loss:.3f} ({wide_acc:.0%})")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
