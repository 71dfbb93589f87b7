"""Self-contained: the logged accuracy is a constant 0.5 while the loss falls and the real accuracy rises."""
import torch
import torch.nn.functional as F


def _epoch(model, X, Y, opt=None, real=False):
    total_loss, correct, n = 0.0, 0.0, 0
    for i in range(0, len(X), 32):
        x, y = X[i:i + 32], Y[i:i + 32]
        logits = model(x)
        loss = F.binary_cross_entropy_with_logits(logits, y)
        if opt is not None:
            opt.zero_grad()
            loss.backward()
            opt.step()
        total_loss += loss.item() * len(x)
        if real:
            correct += ((logits > 0).float() == y).float().mean(dim=1).sum().item()
        else:
            correct += 0.5 * len(x)
        n += len(x)
    return total_loss / n, correct / n


def _check() -> str:
    torch.manual_seed(0)
    X = torch.randn(512, 20)
    W = torch.randn(20, 5)
    Y = (X @ W > 0).float()
    model = torch.nn.Linear(20, 5)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    logged = [_epoch(model, X, Y, opt) for _ in range(10)]
    with torch.no_grad():
        real_loss, real_acc = _epoch(model, X, Y, real=True)
    losses, accs = [l for l, _ in logged], [a for _, a in logged]
    assert losses[-1] < 0.5 * losses[0] and set(accs) == {0.5} and real_acc > 0.9, (losses, accs, real_acc)
    return f"loss {losses[0]:.3f} -> {losses[-1]:.3f}, logged accuracy {accs[0]} every epoch, real accuracy {real_acc:.3f}"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
