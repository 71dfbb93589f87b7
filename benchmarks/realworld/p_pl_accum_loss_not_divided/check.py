import torch
import torch.nn.functional as F


def _check() -> str:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(10, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))
    x, y = torch.randn(256, 10), torch.randn(256, 1)
    k = 8
    model.zero_grad()
    F.mse_loss(model(x), y).backward()
    full = torch.cat([p.grad.flatten() for p in model.parameters()]).norm().item()
    model.zero_grad()
    for xb, yb in zip(x.chunk(k), y.chunk(k)):
        F.mse_loss(model(xb), yb).backward()
    acc = torch.cat([p.grad.flatten() for p in model.parameters()]).norm().item()
    ratio = acc / full
    assert 6.5 < ratio < 9.5, ratio
    return f"8 accumulated micro-batches without dividing: grad norm {acc:.3f} vs {full:.3f} for the same 256 rows in one batch ({ratio:.1f}x)"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

