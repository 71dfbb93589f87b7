import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_i_dssm_softmax_ce_b_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(t, model, to_logits):
    opt = t["optimizer"](model.parameters())
    (q, d), y = t["train_data"]
    losses = []
    for _ in range(8):
        for i in range(0, len(q), 32):
            out = model(q[i : i + 32], d[i : i + 32])
            loss = t["loss_fn"](to_logits(out), y[i : i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
    return sum(losses[-32:]) / 32


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    bad = _train(t, t["model"], lambda out: out)
    torch.manual_seed(0)
    fixed = _train(t, mod.DSSM(), lambda probs: probs.clamp_min(1e-12).log())  # the scores before the softmax
    floor = -math.log(math.e / (math.e + 4))
    assert bad > floor - 1e-3 and bad > 3 * fixed, (bad, fixed, floor)
    return f"final train loss {bad:.3f} (cannot go below {floor:.3f}); {fixed:.3f} when the loss gets the raw scores"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
