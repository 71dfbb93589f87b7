import importlib.util
import pathlib
import warnings

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_d_rllab_sac_critic_target_broadcast_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _intended(mod, seed, n):
    """The soft TD target with the log-probability summed over the action dimensions, (B, 1)."""
    g = torch.Generator().manual_seed(seed)
    s = torch.randn(n, mod.S_DIM, generator=g)
    a = torch.tanh(torch.randn(n, mod.A_DIM, generator=g))
    r = s[:, :1] - 0.5 * a.pow(2).sum(1, keepdim=True)
    log_prob = -0.5 * torch.randn(n, mod.A_DIM, generator=g).pow(2) - 0.9
    return r + mod.GAMMA * (0.5 * s[:, 1:2] - mod.ALPHA * log_prob.sum(1, keepdim=True))


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    (s, a), y = t["train_data"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for step in range(400):
            i = (step * 64) % len(s)
            opt.zero_grad()
            t["loss_fn"](model(s[i : i + 64], a[i : i + 64]), y[i : i + 64]).backward()
            opt.step()
    assert any("target size" in str(w.message) for w in caught)
    (vs, va), _ = t["val_data"]
    want = _intended(mod, 3, len(vs))
    with torch.no_grad():
        err = float(F.mse_loss(model(vs, va), want))
    fixed = mod.make_target()["model"]
    opt2 = torch.optim.Adam(fixed.parameters(), lr=3e-3)
    y_fixed = _intended(mod, 2, len(s))
    for step in range(400):
        i = (step * 64) % len(s)
        opt2.zero_grad()
        F.mse_loss(fixed(s[i : i + 64], a[i : i + 64]), y_fixed[i : i + 64]).backward()
        opt2.step()
    with torch.no_grad():
        err_fixed = float(F.mse_loss(fixed(vs, va), want))
    assert err > 3 * err_fixed, (err, err_fixed)
    return (
        f"size-mismatch warning on every critic update; after 400 updates the critic's squared error against the "
        f"soft TD target is {err:.3f}, {err_fixed:.3f} when the target keeps shape (B, 1)"
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
