import torch
import torch.nn as nn
import torch.nn.functional as F

EPOCHS, BATCHES = 20, 16


def _images(n, g):
    hr = torch.nn.functional.avg_pool2d(torch.rand(n, 1, 16, 16, generator=g), 3, 1, 1)
    return F.avg_pool2d(hr, 2), hr


def _train(per_batch):
    g = torch.Generator().manual_seed(0)
    lr_img, hr_img = _images(BATCHES * 8, g)
    torch.manual_seed(0)
    net = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
                        nn.Conv2d(8, 1, 3, padding=1))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=EPOCHS // 2, gamma=0.1)
    curve = []
    for epoch in range(EPOCHS):
        for i in range(BATCHES):
            x, y = lr_img[i * 8 : i * 8 + 8], hr_img[i * 8 : i * 8 + 8]
            opt.zero_grad()
            loss = F.mse_loss(net(x), y)
            loss.backward()
            opt.step()
            if per_batch:
                sched.step()
        if not per_batch:
            sched.step()
        with torch.no_grad():
            curve.append(F.mse_loss(net(lr_img), hr_img).item())
    return curve, opt.param_groups[0]["lr"]


def _check() -> str:
    bad, lr_bad = _train(per_batch=True)
    good, _ = _train(per_batch=False)
    assert abs(bad[1] - bad[-1]) < 0.01 * bad[1] and good[-1] < 0.5 * bad[-1], (bad, good)
    return (f"content loss after epoch 2 {bad[1]:.4f}, after epoch {EPOCHS} {bad[-1]:.4f} (lr now {lr_bad:.0e}); "
            f"stepping the scheduler per epoch reaches {good[-1]:.4f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
