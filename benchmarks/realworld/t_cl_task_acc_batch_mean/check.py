"""Self-contained: a classifier's task accuracy as a mean of batch accuracies vs correct/total."""

import torch
from torch import nn


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    n, d = 1010, 20
    x = torch.randn(n, d, generator=g)
    w = torch.randn(d, generator=g)
    y = (x @ w + 1.5 * torch.randn(n, generator=g) > 0).long()
    # test set stored sorted by a nuisance score, as task test sets often are (e.g. by source file)
    order = torch.argsort((x @ w).abs(), descending=False)
    x, y = x[order], y[order]
    torch.manual_seed(0)
    model = nn.Linear(d, 2)
    with torch.no_grad():
        model.weight.copy_(torch.stack([-w, w]) / 2)
        model.bias.zero_()
    bs = 100
    batch_accs, correct, total = [], 0, 0
    with torch.no_grad():
        for i in range(0, n, bs):
            pred = model(x[i:i + bs]).argmax(1)
            batch_accs.append((pred == y[i:i + bs]).float().mean().item())
            correct += (pred == y[i:i + bs]).sum().item()
            total += len(pred)
    reported = sum(batch_accs) / len(batch_accs)
    true = correct / total
    assert abs(reported - true) > 0.01, (reported, true)
    return (f"mean of {len(batch_accs)} batch accuracies (last batch {n % bs} examples) = {reported:.3f}, "
            f"correct/total = {true:.3f}")

def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

