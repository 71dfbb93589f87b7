import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 6, generator=g)
    y = (x @ torch.tensor([1.5, -2.0, 0.7, 0.0, 1.0, -0.5]) + 0.1 * torch.randn(n, generator=g)).unsqueeze(1)
    return x, y  # targets kept as (n, 1), as the data loader yields them


def _run(squeeze):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x, y = _data(512, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(20):
            for i in range(0, len(x), 64):
                pred = model(x[i : i + 64])
                pred = pred.squeeze(-1) if squeeze else pred
                loss = F.mse_loss(pred, y[i : i + 64])
                opt.zero_grad()
                loss.backward()
                opt.step()
    vx, vy = _data(256, 2)
    with torch.no_grad():
        err = ((model(vx) - vy) ** 2).mean().item()  # per-sample error, shapes matched
    return err / vy.var().item()


def _check() -> str:
    bug, ok = _run(True), _run(False)
    assert bug > 0.9 and ok < 0.1, (bug, ok)
    return f"20 epochs: val MSE / target variance {bug:.2f} with (n,) predictions vs (n,1) targets, {ok:.3f} with matching shapes"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
