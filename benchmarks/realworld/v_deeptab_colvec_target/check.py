"""Train the target's regressor with the (B,1,1) labels it builds, and with flattened labels, and compare R2."""
import importlib.util
import warnings
from pathlib import Path

import torch


def _load_target():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("v_deeptab_target", p)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def _r2(pred, y):
    return 1.0 - ((pred - y) ** 2).sum().item() / ((y - y.mean()) ** 2).sum().item()


def _train(t, fix_shape):
    torch.manual_seed(0)
    X, labels = t.make_data()
    Xv, labels_v = t.make_data(n=256, seed=1)
    model = t.MLPRegressor()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    loss_fn = torch.nn.MSELoss()
    g = torch.Generator().manual_seed(2)
    for epoch in range(15):
        perm = torch.randperm(len(X), generator=g)
        for i in range(0, len(X), 64):
            idx = perm[i:i + 64]
            yb = labels[idx].reshape(-1, 1) if fix_shape else labels[idx]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                loss = loss_fn(model(X[idx]), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        pred = model(Xv).reshape(-1)
    return _r2(pred, labels_v.reshape(-1)), pred.std().item(), labels_v.reshape(-1).std().item()


def _check() -> str:
    t = _load_target()
    tgt = t.make_target()
    x, y = tgt["batch"]
    out = tgt["model"](x)
    assert out.shape == (64, 1) and y.shape == (64, 1, 1), (out.shape, y.shape)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert (out - y).shape == (64, 64, 1)
    r2_bad, std_bad, std_y = _train(t, fix_shape=False)
    r2_ok, _, _ = _train(t, fix_shape=True)
    assert r2_bad < 0.1 and r2_ok > 0.9, (r2_bad, r2_ok)
    assert std_bad < 0.3 * std_y, (std_bad, std_y)
    return (f"labels (B,1,1) vs predictions (B,1) broadcast to (B,B,1): val R2 {r2_bad:.3f}, prediction std "
            f"{std_bad:.2f} vs target std {std_y:.2f}; with flattened labels R2 {r2_ok:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
