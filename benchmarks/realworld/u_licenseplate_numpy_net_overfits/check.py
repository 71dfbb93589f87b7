"""Self-contained: a small network on ~560 training images of 30 classes (few per class) fits the training split
almost perfectly while the held-out accuracy stays far below; no defect, just too little data for the task."""
import torch
import torch.nn.functional as F


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    n_cls, d = 30, 64
    proto = torch.randn(n_cls, d, generator=g)
    def draw(n):
        y = torch.randint(0, n_cls, (n,), generator=g)
        return proto[y] * 0.35 + torch.randn(n, d, generator=g), y     # noisy, low-resolution glyphs
    x, y = draw(800)
    perm = torch.randperm(800, generator=g)
    tr, dv = perm[:560], perm[560:]
    model = torch.nn.Sequential(torch.nn.Linear(d, 256), torch.nn.ReLU(), torch.nn.Linear(256, n_cls))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    dev_losses = []
    for epoch in range(150):
        loss = F.cross_entropy(model(x[tr]), y[tr])
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            dev_losses.append(F.cross_entropy(model(x[dv]), y[dv]).item())
    with torch.no_grad():
        tr_acc = (model(x[tr]).argmax(1) == y[tr]).float().mean().item()
        dv_acc = (model(x[dv]).argmax(1) == y[dv]).float().mean().item()
    best = min(dev_losses)
    assert tr_acc > 0.95 and tr_acc - dv_acc > 0.35 and dev_losses[-1] > best * 1.08, (tr_acc, dv_acc, best, dev_losses[-1])
    return (f"train acc {tr_acc:.2f}, dev acc {dv_acc:.2f}; dev loss best {best:.2f} then {dev_losses[-1]:.2f} "
            f"while training keeps improving")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
