import torch
import torch.nn as nn


def _evaluate(model, x):
    model.eval()
    with torch.no_grad():
        return model(x)


def _check() -> str:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Dropout(0.3), nn.Linear(32, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(16, 8), torch.randn(16, 1)
    model.train()
    stochastic = []
    for step in range(1, 7):
        x_probe = x[:4]
        a, b = model(x_probe), model(x_probe)  # two forwards in "train" phase
        stochastic.append(not torch.allclose(a, b))
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()
        if step % 2 == 0:
            _evaluate(model, x)  # the loop never calls model.train() again
    assert stochastic[:2] == [True, True] and not any(stochastic[2:]), stochastic
    return f"dropout active in training steps: {stochastic} (off after the first evaluate call)"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
