"""Sea-ice concentration forecaster trained on daily gridded predictors (1979-2025)."""
import torch
import torch.nn as nn

START_YEAR, END_YEAR = 1979, 2025
DAYS_PER_YEAR = 12          # one sample per month keeps the toy small
N_FEATURES = 6              # ERA5 / OSI SAF style predictors on a flattened patch
TRAIN_END, VAL_END = 2021, 2023


def _dates():
    years = torch.arange(START_YEAR, END_YEAR + 1).repeat_interleave(DAYS_PER_YEAR)
    month = torch.arange(DAYS_PER_YEAR).repeat(END_YEAR - START_YEAR + 1)
    return years, month


def _load_full_dataset():
    g = torch.Generator().manual_seed(7)
    years, month = _dates()
    t = (years - START_YEAR).float() + month.float() / DAYS_PER_YEAR
    season = torch.cos(2 * torch.pi * month.float() / DAYS_PER_YEAR)
    warming = 0.08 * t                                    # predictors drift upwards year on year
    base = torch.randn(len(t), N_FEATURES, generator=g)
    x = base + season[:, None] * torch.linspace(1.0, 3.0, N_FEATURES) + warming[:, None] * torch.linspace(0.5, 2.0, N_FEATURES)
    sic = (0.7 * season - 0.01 * t + 0.1 * base[:, 0]).unsqueeze(1)   # ice concentration anomaly
    return years, x, sic


def dataset_statistics(years, x):
    # same rule as the dataset recipe default: for long datasets, leave out the final three years
    stats_end = END_YEAR - 3
    window = years <= stats_end
    return x[window].min(0).values, x[window].max(0).values


class IceForecaster(nn.Module):
    def __init__(self, minimum, maximum):
        super().__init__()
        self.register_buffer("minimum", minimum.clone())
        self.register_buffer("maximum", maximum.clone())
        self.net = nn.Sequential(nn.Linear(N_FEATURES, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))

    def normalise(self, x):
        return (x - self.minimum) / (self.maximum - self.minimum)

    def forward(self, x):
        return self.net(self.normalise(x))


def splits():
    years, x, sic = _load_full_dataset()
    train = years <= TRAIN_END
    val = (years > TRAIN_END) & (years <= VAL_END)
    return years, x, sic, train, val


def make_target():
    torch.manual_seed(0)
    years, x, sic, train, val = splits()
    minimum, maximum = dataset_statistics(years, x)
    model = IceForecaster(minimum, maximum)
    xtr, ytr = x[train], sic[train]
    return {
        "model": model,
        "batch": (xtr[-64:], ytr[-64:]),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": (xtr, ytr),
        "val_data": (x[val], sic[val]),
    }
