"""Train with the broadcasting cost and with the fixed one: the broadcast run predicts ~the same value for every node."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("t_chickenpox_target", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def _train(t, fixed):
    torch.manual_seed(0)
    model = t.GraphForecaster()
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    snaps = t.snapshots()
    train, test = snaps[:40], snaps[40:]
    for _ in range(60):
        c = 0
        for x, y in train:
            y_hat = model(x)
            c = c + (torch.mean((y_hat.squeeze(-1) - y) ** 2) if fixed else t.cost(y_hat, y))
        c = c / len(train)
        opt.zero_grad()
        c.backward()
        opt.step()
    with torch.no_grad():
        mse = torch.stack([torch.mean((model(x).squeeze(-1) - y) ** 2) for x, y in test]).mean().item()
        spread = torch.stack([model(x).squeeze(-1).std() for x, y in test]).mean().item()
        tgt_spread = torch.stack([y.std() for x, y in test]).mean().item()
    return c.item(), mse, spread, tgt_spread


def _check() -> str:
    t = _load()
    x, y = t.snapshots()[0]
    assert t.GraphForecaster()(x).shape != y.shape
    bad_cost, bad_mse, bad_spread, tgt_spread = _train(t, fixed=False)
    ok_cost, ok_mse, ok_spread, _ = _train(t, fixed=True)
    assert bad_mse > 3 * ok_mse, (bad_mse, ok_mse)
    assert bad_spread < 0.3 * tgt_spread < ok_spread, (bad_spread, ok_spread, tgt_spread)
    return (f"broadcast cost: train cost {bad_cost:.2f}, true test MSE {bad_mse:.2f}, prediction spread across "
            f"nodes {bad_spread:.2f} (targets {tgt_spread:.2f}); fixed shapes: test MSE {ok_mse:.2f}, spread {ok_spread:.2f}")

def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

