import torch
from torch import nn

N_LAG = 3
N_FEAT = 4


def make_series(n=4000, seed=0):
    g = torch.Generator().manual_seed(seed)
    sensors = torch.randn(n, N_FEAT, generator=g)
    w = torch.tensor([0.8, -0.5, 0.4, 0.3])
    load = torch.zeros(n)
    load[1:] = sensors[:-1] @ w + 0.05 * torch.randn(n - 1, generator=g)
    load = (load - load.mean()) / load.std()
    return sensors, load


def series_to_supervised(values, n_in=N_LAG):
    rows = [values[i:i + n_in].reshape(-1) for i in range(len(values) - n_in)]
    return torch.stack(rows)


def build_dataset(seed=0):
    sensors, load = make_series(seed=seed)
    X = series_to_supervised(sensors)
    horizon = 1
    y = load[N_LAG + horizon + N_LAG - 1:]
    X = X[: len(y)]
    return X, y.unsqueeze(1)


def make_target():
    torch.manual_seed(0)
    X, y = build_dataset()
    model = nn.Sequential(nn.Linear(N_LAG * N_FEAT, 32), nn.ReLU(), nn.Linear(32, 1))
    return {
        "model": model,
        "batch": (X[:64], y[:64]),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
        "train_data": (X, y),
    }
