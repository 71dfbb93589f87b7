import torch
import torch.nn as nn


class WideDeep(nn.Module):
    def __init__(self):
        super().__init__()
        self.deep = nn.Sequential(nn.Linear(6, 30), nn.ReLU(), nn.Linear(30, 30), nn.ReLU())
        self.out = nn.Linear(5 + 30, 1)

    def forward(self, wide, deep):
        return self.out(torch.cat([wide, self.deep(deep)], dim=1))


def _housing(n, g):
    """Eight housing-like features on very different scales and a price that depends on them nonlinearly."""
    income = 1 + 4 * torch.rand(n, generator=g)
    age = 1 + 51 * torch.rand(n, generator=g)
    rooms = 3 + 4 * torch.rand(n, generator=g)
    bedrooms = 0.8 + 0.4 * torch.rand(n, generator=g)
    population = 100 + 3000 * torch.rand(n, generator=g)
    occupancy = 1.5 + 3 * torch.rand(n, generator=g)
    lat = 32 + 10 * torch.rand(n, generator=g)
    lon = -124 + 10 * torch.rand(n, generator=g)
    x = torch.stack([income, age, rooms, bedrooms, population, occupancy, lat, lon], 1)
    y = 0.5 * income + 0.3 * torch.sin(lat - 32) + 0.2 * torch.cos(lon + 124) - 0.1 * (occupancy - 3) ** 2
    return x, (y + 0.05 * torch.randn(n, generator=g)).view(-1, 1)


def _fit(x, y, vx, vy):
    torch.manual_seed(0)
    model = WideDeep()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(20):
        for i in range(0, len(x), 64):
            opt.zero_grad()
            xb = x[i : i + 64]
            loss = ((model(xb[:, :5], xb[:, 2:]) - y[i : i + 64]) ** 2).mean()
            loss.backward()
            opt.step()
    with torch.no_grad():
        return ((model(vx[:, :5], vx[:, 2:]) - vy) ** 2).mean().item()


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    x, y = _housing(1024, g)
    vx, vy = _housing(512, g)
    mse_raw = _fit(x, y, vx, vy)
    mu, sd = x.mean(0), x.std(0)
    mse_scaled = _fit((x - mu) / sd, y, (vx - mu) / sd, vy)
    assert mse_raw > 3 * mse_scaled, (mse_raw, mse_scaled)
    return f"20 epochs: validation MSE {mse_raw:.3f} on raw features, {mse_scaled:.3f} on standardised ones"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
