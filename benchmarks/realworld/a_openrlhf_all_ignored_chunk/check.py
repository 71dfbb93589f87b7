import importlib.util
import os

import torch
import torch.nn.functional as F


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_a_openrlhf_all_ignored_chunk_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    (ids,), labels = t["batch"]
    logits = model(ids)
    loss = loss_fn(logits, labels)
    valid = labels != -100
    plain = F.cross_entropy(logits[valid], labels[valid]).item()
    first_slice_valid = int(valid[:, : ids.size(1) // 2].sum())
    assert torch.isnan(loss), loss
    assert first_slice_valid == 0
    return (f"sliced loss is {loss.item()} because slice 0 has {first_slice_valid} supervised tokens; "
            f"the same tokens give {plain:.3f} without slicing")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny tensors: thread start-up costs more than the math
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
