import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(n, seed):
    """10-class 'images' (1x12x12): each class is a fixed random pattern plus noise."""
    patterns = torch.randn(10, 1, 12, 12, generator=torch.Generator().manual_seed(0))
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 10, (n,), generator=g)
    return patterns[y] + 1.5 * torch.randn(n, 1, 12, 12, generator=g), y


def _model():
    return nn.Sequential(
        nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(8 * 3 * 3, 10),
    )


def _check() -> str:
    torch.manual_seed(0)
    model = _model()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = _data(2048, 1)
    for _ in range(3):
        for i in range(0, len(x), 32):
            opt.zero_grad()
            F.cross_entropy(model(x[i : i + 32]), y[i : i + 32]).backward()
            opt.step()
    model.eval()
    vx, vy = _data(1024, 2)
    loop_correct, pred_correct = 0, 0
    with torch.inference_mode():
        for i in range(0, len(vx), 32):
            logits = model(vx[i : i + 32])
            loop_correct += (logits.argmax(dim=1) == vy[i : i + 32]).sum().item()
            preds = torch.softmax(logits.squeeze(), dim=0).argmax(dim=1)
            pred_correct += (preds == vy[i : i + 32]).sum().item()
    acc_loop, acc_preds = loop_correct / len(vx), pred_correct / len(vx)
    assert acc_loop > 0.8 and acc_preds < acc_loop - 0.1, (acc_loop, acc_preds)
    return f"same model, same test set: accuracy {acc_loop:.2f} in the test loop, {acc_preds:.2f} from the prediction helper"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
