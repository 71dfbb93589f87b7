import importlib.util
import os

import torch
import torch.nn.functional as F


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_a_allennlp_softmax_then_log_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    inputs, onehot = t["batch"]
    logits = model(*inputs)
    probs = torch.softmax(logits, -1)
    zeros = int((probs == 0).sum())
    loss = loss_fn(logits, onehot)
    stable = F.cross_entropy(logits, onehot.argmax(-1), reduction="sum").item()
    assert zeros > 0 and not torch.isfinite(loss), (zeros, loss)
    return (f"logit range {logits.min().item():.0f}..{logits.max().item():.0f}; {zeros} probabilities underflow to 0; "
            f"hand-written loss = {loss.item()} while log-softmax cross-entropy = {stable:.1f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny tensors: thread start-up costs more than the math
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
