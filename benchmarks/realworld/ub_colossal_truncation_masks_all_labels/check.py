import importlib.util
import math
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("ub_colossal_truncation_masks_all_labels_target",
                                                  os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    ids, labels = t["batch"]
    supervised = int((labels[:, 1:] != mod.IGNORE).sum())
    with torch.no_grad():
        loss = loss_fn(model(ids), labels).item()
    # the long-context documents lose every continuation token to the cut
    assert supervised == 0, supervised
    assert math.isnan(loss), loss
    # the same documents with a shorter context do carry supervised tokens
    short_ids, short_labels = mod.build_batch(mod._pairs(8, ctx_len=10, cont_len=8, seed=1))
    with torch.no_grad():
        short_loss = loss_fn(model(short_ids), short_labels).item()
    assert math.isfinite(short_loss), short_loss
    return (f"long-context batch keeps {supervised} supervised label positions after truncation to "
            f"{mod.MAX_LENGTH} and its loss is {loss}; short-context batch loss {short_loss:.3f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
