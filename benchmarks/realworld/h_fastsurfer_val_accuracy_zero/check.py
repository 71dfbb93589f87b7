import torch
import torch.nn as nn
import torch.nn.functional as F


def _slices(n, seed):
    g = torch.Generator().manual_seed(seed)
    img = torch.randn(n, 1, 10, 10, generator=g)
    lab = (F.avg_pool2d(img, 3, 1, 1) > 0).long().squeeze(1)  # two-class "tissue" map per voxel
    return img, lab


def _validate(model, x, y, integer_counts):
    correct, total, val_loss = 0, 0, 0.0
    with torch.no_grad():
        for i in range(0, len(x), 16):
            logits = model(x[i : i + 16])
            val_loss += F.cross_entropy(logits, y[i : i + 16]).item() * len(logits)
            preds = logits.argmax(1)
            if integer_counts:
                correct += int((preds == y[i : i + 16]).sum())
            else:
                correct += (preds == y[i : i + 16]).float().sum().item()
            total += y[i : i + 16].numel()
    acc = correct // total if integer_counts else correct / total
    return val_loss / len(x), acc


def _check() -> str:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 2, 3, padding=1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x, y = _slices(256, 1)
    vx, vy = _slices(64, 2)
    logged = []
    for _ in range(4):
        for i in range(0, len(x), 16):
            opt.zero_grad()
            F.cross_entropy(model(x[i : i + 16]), y[i : i + 16]).backward()
            opt.step()
        logged.append(_validate(model, vx, vy, integer_counts=True))
    _, true_acc = _validate(model, vx, vy, integer_counts=False)
    losses, accs = [v for v, _ in logged], [a for _, a in logged]
    assert all(a == 0 for a in accs) and losses[-1] < losses[0] and true_acc > 0.85, (logged, true_acc)
    return f"logged val_acc {accs} while val_loss falls {losses[0]:.3f} -> {losses[-1]:.3f}; true voxel accuracy {true_acc:.3f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
