"""Train with the custom TotScores and with plain autograd log-sum-exp; compare the objective and the gradients."""

import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_e_k2_tot_scores_backward_ignores_grad_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _reference_loss(scores, num_mask):
    num = torch.logsumexp(scores.masked_fill(~num_mask, float("-inf")), -1)
    return (torch.logsumexp(scores, -1) - num).mean()


def _train(mod, loss_fn):
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, m = t["train_data"]
    vx, vm = t["val_data"]
    with torch.no_grad():
        start = _reference_loss(model(vx), vm).item()
    for _ in range(8):
        for i in range(0, len(x), 64):
            opt.zero_grad()
            loss_fn(model(x[i : i + 64]), m[i : i + 64]).backward()
            opt.step()
    with torch.no_grad():
        return start, _reference_loss(model(vx), vm).item()


def _check() -> str:
    mod = _load()
    s = torch.randn(4, mod.N_ARCS, requires_grad=True)
    mask = torch.zeros(4, mod.N_ARCS, dtype=torch.bool)
    mask[:, :2] = True
    (g_custom,) = torch.autograd.grad(mod.mmi_loss(s, mask), s)
    (g_ref,) = torch.autograd.grad(_reference_loss(s, mask), s)
    assert not torch.allclose(g_custom, g_ref, atol=1e-4)
    b0, b1 = _train(mod, mod.mmi_loss)
    r0, r1 = _train(mod, _reference_loss)
    assert b1 > b0, (b0, b1)
    assert r1 < 0.7 * r0, (r0, r1)
    return f"8 epochs: objective {b0:.3f} -> {b1:.3f} with the custom backward, {r0:.3f} -> {r1:.3f} with autograd"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
