import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    img = torch.rand(n, 1, 12, 12, generator=g)
    cy = torch.randint(2, 10, (n,), generator=g)
    cx = torch.randint(2, 10, (n,), generator=g)
    heat = torch.zeros(n, 1, 12, 12)
    heat[torch.arange(n), 0, cy, cx] = 1.0
    img = img + 2.0 * heat  # a bright spot marks the object centre
    size = heat.repeat(1, 2, 1, 1) * torch.randint(2, 6, (n, 2, 1, 1), generator=g).float()
    return img, heat, size  # centre heatmap and box width/height at the centre


def _net():
    return nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1))


def _run(zero_grad):
    torch.manual_seed(0)
    model = _net()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x, heat, size = _data(256, 1)
    epochs = []
    for _ in range(4):
        losses = []
        for i in range(0, len(x), 16):
            out = model(x[i : i + 16])
            loss = F.binary_cross_entropy_with_logits(out[:, :1], heat[i : i + 16]) + F.l1_loss(
                out[:, 1:], size[i : i + 16]
            )
            if zero_grad:
                opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        epochs.append(sum(losses) / len(losses))
    return epochs


def _check() -> str:
    bad, good = _run(False), _run(True)
    assert bad[-1] > 20 * good[-1] and bad[-1] > 2 * bad[0], (bad, good)
    return (
        "epoch losses "
        + ", ".join(f"{v:.3g}" for v in bad)
        + " without clearing gradients; "
        + ", ".join(f"{v:.3g}" for v in good)
        + " with"
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
