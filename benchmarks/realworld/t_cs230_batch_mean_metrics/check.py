"""Self-contained: evaluation accuracy as the mean of per-batch accuracies when the last batch is small."""

import torch
from torch import nn


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    n_val, bs = 130, 64  # 64 + 64 + 2
    w_true = torch.randn(10, generator=g)
    x = torch.randn(n_val + 600, 10, generator=g)
    y = (x @ w_true > 0).long()
    xtr, ytr, xv, yv = x[n_val:], y[n_val:], x[:n_val], y[:n_val].clone()
    model = nn.Linear(10, 2)
    opt = torch.optim.Adam(model.parameters(), lr=5e-2)
    for _ in range(200):
        loss = nn.functional.cross_entropy(model(xtr), ytr)
        opt.zero_grad()
        loss.backward()
        opt.step()
    yv[-2:] = 1 - yv[-2:]  # the two examples left over in the last (tail) batch are hard / mislabelled
    batch_accs, batch_losses, correct, total_loss = [], [], 0, 0.0
    with torch.no_grad():
        for i in range(0, n_val, bs):
            out, lab = model(xv[i:i + bs]), yv[i:i + bs]
            acc = (out.argmax(1) == lab).float().mean().item()
            l = nn.functional.cross_entropy(out, lab).item()
            batch_accs.append(acc)
            batch_losses.append(l)
            correct += (out.argmax(1) == lab).sum().item()
            total_loss += l * lab.numel()
    mean_of_batches = sum(batch_accs) / len(batch_accs)
    true_acc = correct / n_val
    assert true_acc - mean_of_batches > 0.2, (true_acc, mean_of_batches)
    return (f"reported val accuracy {mean_of_batches:.3f} (mean of {len(batch_accs)} batch accuracies, last batch of 2) "
            f"vs {true_acc:.3f} over all {n_val} examples; loss {sum(batch_losses)/len(batch_losses):.3f} vs {total_loss/n_val:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
