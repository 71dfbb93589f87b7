import importlib.util
import math
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_d_mdd_log_one_minus_softmax_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _clamped(mod):
    def loss(out, y):
        logits, adv = out
        src = y >= 0
        pseudo = logits.detach().argmax(1)
        logloss_tgt = torch.log(torch.clamp(1 - F.softmax(adv[~src], dim=1), min=1e-15))
        return (
            F.cross_entropy(logits[src], y[src])
            + mod.SRC_WEIGHT * F.cross_entropy(adv[src], pseudo[src])
            + F.nll_loss(logloss_tgt, pseudo[~src])
        )

    return loss


def _run(mod, loss_fn):
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    losses = []
    for x, y in t["train_data"]:
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    x, _, yt = mod._domains(256, 7)
    with torch.no_grad():
        acc = float((model(x)[0][256:].argmax(1) == yt).float().mean())
    return losses, acc


def _check() -> str:
    mod = _load()
    losses, acc = _run(mod, mod.make_target()["loss_fn"])
    bad = [i for i, v in enumerate(losses) if not math.isfinite(v)]
    assert bad, "the loss stayed finite"
    before = max(losses[: bad[0]])
    fixed_losses, acc_fixed = _run(mod, _clamped(mod))
    assert before < 20 and all(math.isfinite(v) for v in fixed_losses), (before, fixed_losses[-5:])
    assert acc < 0.5 < 0.9 < acc_fixed, (acc, acc_fixed)
    return (
        f"loss finite (at most {before:.1f}) for {bad[0]} steps, then NaN for good; target-domain accuracy "
        f"{acc:.2f}; with the log argument clamped: finite throughout, accuracy {acc_fixed:.2f}"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
