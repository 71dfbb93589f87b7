import torch
import torch.nn as nn
import torch.nn.functional as F


def _train(clear_each_step: bool):
    torch.manual_seed(0)
    w = torch.randn(20, 1)
    x = torch.randn(640, 20)
    y = x @ w + 0.1 * torch.randn(640, 1)
    model = nn.Sequential(nn.Linear(20, 32), nn.Tanh(), nn.Linear(32, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    losses, norms = [], []
    opt.zero_grad()
    for i in range(0, 640 * 3, 32):
        xb, yb = x[i % 640 : i % 640 + 32], y[i % 640 : i % 640 + 32]
        if clear_each_step:
            opt.zero_grad()
        loss = F.mse_loss(model(xb), yb)
        loss.backward()
        norms.append(float(torch.cat([p.grad.flatten() for p in model.parameters()]).norm()))
        opt.step()
        losses.append(loss.item())
    return losses, norms


def _check() -> str:
    bug_loss, bug_norm = _train(clear_each_step=False)
    ok_loss, ok_norm = _train(clear_each_step=True)
    assert bug_loss[-1] > 5 * ok_loss[-1], (bug_loss[-1], ok_loss[-1])
    assert bug_norm[-1] > 2 * bug_norm[5], (bug_norm[5], bug_norm[-1])
    return (
        f"zero_grad once outside the loop: loss {bug_loss[0]:.2f} -> {bug_loss[-1]:.2f}, grad norm "
        f"{bug_norm[5]:.2f} -> {bug_norm[-1]:.2f}; cleared per batch: loss {ok_loss[-1]:.3f}"
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
