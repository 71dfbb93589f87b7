import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_p_charrnn_state_no_epoch_reset_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    batches = t["train_data"]
    model.eval()
    x0, y0 = batches[0]
    with torch.no_grad():
        fresh = model(x0)                    # state None: first pass of epoch 1
        for xb, _ in batches[1:]:            # rest of epoch 1
            model(xb)
        wrapped = model(x0)                  # first batch of epoch 2: inherits end-of-epoch-1 state
        model(batches[3][0])
        after_other = model(x0)
    d_wrap = (fresh - wrapped).abs().max().item()
    d_other = (wrapped - after_other).abs().max().item()
    l_fresh, l_wrap = loss_fn(fresh, y0).item(), loss_fn(wrapped, y0).item()
    assert d_wrap > 1e-2 and d_other > 1e-3, (d_wrap, d_other)
    return (f"same batch, same weights: output differs by up to {d_wrap:.3f} at the epoch wrap (loss {l_fresh:.4f} vs "
            f"{l_wrap:.4f}) and by {d_other:.3f} depending on the batch run just before")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
