import torch
import torch.nn as nn
import torch.nn.functional as F


def _fit(images, labels, vx, vy):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.Linear(64, 5))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(200):
        opt.zero_grad()
        loss = F.cross_entropy(model(images), labels)
        loss.backward()
        opt.step()
    with torch.no_grad():
        return loss.item(), (model(vx).argmax(1) == vy).float().mean().item()


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    proto = 2 * torch.randn(5, 24, generator=g)
    labels = torch.randint(0, 5, (600,), generator=g)
    images = proto[labels] + torch.randn(600, 24, generator=g)
    order = torch.randperm(600, generator=g)
    shuffled_images = images[order]  # labels were taken before the shuffle and keep their old order
    bug_loss, bug_acc = _fit(shuffled_images[:500], labels[:500], images[500:], labels[500:])
    ok_loss, ok_acc = _fit(images[order][:500], labels[order][:500], images[500:], labels[500:])
    assert bug_acc < 0.35 and ok_acc > 0.9, (bug_acc, ok_acc)
    return (
        f"labels taken before the shuffle: val accuracy {bug_acc:.2f}, train loss {bug_loss:.2f}; "
        f"shuffled together: {ok_acc:.2f}, train loss {ok_loss:.2f}"
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
