"""Self-contained: 195 batches of 128 + a last batch of 40 easy examples; mean of batch means vs true accuracy."""

import torch


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    full, last, bs = 195 * 128, 40, 128
    # predictions right with prob 0.903 on the bulk, the final 40 (all positive) are all right
    correct_bulk = (torch.rand(full, generator=g) < 0.903)
    correct = torch.cat([correct_bulk, torch.ones(last, dtype=torch.bool)])
    true_acc = correct.float().mean().item()
    batch_means = [c.float().mean().item() for c in correct.split(bs)]
    logged = sum(batch_means) / len(batch_means)
    target = 0.9045
    assert len(batch_means) == 196 and batch_means[-1] == 1.0
    assert logged > true_acc + 1e-4, (logged, true_acc)
    assert logged >= target > true_acc or abs(logged - true_acc) > 3e-4, (logged, true_acc)
    return f"mean of per-batch accuracies {logged:.4f} vs accuracy over all {correct.numel()} examples {true_acc:.4f}"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
