import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("uc_translate_decoder_mask_flipped_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    (tgt, train_mask), y = t["batch"]
    out = t["eval_fn"](model, t["batch"])
    tgt2 = tgt.clone()
    tgt2[:, -1] = (tgt2[:, -1] + 1) % mod.VOCAB          # change only the last target token
    out2 = t["eval_fn"](model, ((tgt2, train_mask), y))
    leak = (out2[:, 0] - out[:, 0]).abs().max().item()
    with torch.no_grad():
        ref = model(tgt, train_mask)
    gap = (out - ref).abs().max().item()
    # a decoding mask equal to the training mask gives leak == 0 and gap == 0
    assert leak > 1e-4, leak
    assert gap > 1e-3, gap
    return (f"decoding routine: logits at position 0 move by {leak:.3f} when only the last token changes, and differ "
            f"by up to {gap:.3f} from the teacher-forced training-mask output on the same tokens")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
