import torch
from torch import nn


def _check() -> str:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv1d(16, 32, 3, padding=1), nn.BatchNorm1d(32), nn.Hardtanh(0, 20),
                          nn.Dropout(0.3), nn.Conv1d(32, 29, 1))
    x = torch.randn(4, 16, 50)
    with torch.no_grad():
        a, b = model(x).argmax(1), model(x).argmax(1)
        model.eval()
        c, d = model(x).argmax(1), model(x).argmax(1)
    diff_train = (a != b).float().mean().item()
    assert diff_train > 0.05 and torch.equal(c, d), diff_train
    return f"test pass without eval(): {diff_train:.0%} of frame predictions change between two identical passes; eval(): identical"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

