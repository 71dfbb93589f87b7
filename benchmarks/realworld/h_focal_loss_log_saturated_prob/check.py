import torch
import torch.nn as nn
import torch.nn.functional as F


def _focal(prob, target, eps, gamma=2.0, alpha=0.25):
    if eps:
        prob = prob.clamp(eps, 1 - eps)
    pt_1 = torch.where(target == 1, prob, torch.ones_like(prob))
    pt_0 = torch.where(target == 0, prob, torch.zeros_like(prob))
    pos = alpha * (1.0 - pt_1) ** gamma * torch.log(pt_1)
    neg = (1.0 - alpha) * pt_0**gamma * torch.log(1.0 - pt_0)
    return -(pos.sum() + neg.sum()) / prob.numel()


def _data():
    g = torch.Generator().manual_seed(1)
    x = torch.randn(512, 8, generator=g)
    y = (x[:, 0] + 0.5 * x[:, 1] > 0).float()
    flip = torch.rand(512, generator=g) < 0.03  # a few wrongly labelled images, as in any real set
    return x, y, torch.where(flip, 1 - y, y)


def _run(eps):
    """Resume from a checkpoint trained with BCE on logits, then continue with the focal loss."""
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 1))
    opt = torch.optim.Adam(net.parameters(), lr=0.01)
    x, y_clean, y = _data()
    for step in range(600):
        i = (step * 64) % 512
        loss = F.binary_cross_entropy_with_logits(net(x[i : i + 64]).squeeze(1), y_clean[i : i + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
    for step in range(200):
        i = (step * 64) % 512
        loss = _focal(torch.sigmoid(net(x[i : i + 64]).squeeze(1)), y[i : i + 64], eps)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if not torch.isfinite(loss):
            nan_params = any(torch.isnan(p).any().item() for p in net.parameters())
            return step, loss.item(), nan_params
    return None, loss.item(), False


def _check() -> str:
    bad_step, bad_loss, nan_params = _run(eps=0.0)
    ok_step, ok_loss, _ = _run(eps=1e-7)
    assert bad_step is not None and bad_step < 20 and nan_params and ok_step is None, (bad_step, nan_params, ok_step)
    return (f"after switching a BCE checkpoint to the focal loss: loss {bad_loss} at step {bad_step} and NaN weights; "
            f"with probabilities clipped to [1e-7, 1-1e-7] it stays finite ({ok_loss:.4f} after 200 steps)")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
