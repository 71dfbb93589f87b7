"""Averaging per-batch accuracies over-weights the short last batch: the reported accuracy depends on the batch size."""

import torch


def _predictions():
    # 1000 validation examples; the classifier is right on about 910 of them, mistakes spread unevenly.
    g = torch.Generator().manual_seed(0)
    correct = torch.ones(1000)
    wrong = torch.randperm(1000, generator=g)[:88]
    correct[wrong] = 0.0
    correct[-8:] = torch.tensor([0, 0, 0, 1, 0, 1, 0, 0.0])  # a hard tail of the set
    return correct


def _mean_of_batch_means(correct, bs):
    means = [correct[i : i + bs].mean().item() for i in range(0, len(correct), bs)]
    return sum(means) / len(means)


def _check() -> str:
    correct = _predictions()
    true = correct.mean().item()
    a64, a32 = _mean_of_batch_means(correct, 64), _mean_of_batch_means(correct, 32)
    assert abs(a64 - a32) > 1e-3 and abs(a64 - true) > 3e-3 and abs(a32 - true) > 3e-3, (true, a64, a32)
    return f"accuracy over the set {true:.3f}; mean of batch means {a64:.3f} with batch 64, {a32:.3f} with batch 32"


def check() -> str:
    return _check()


if __name__ == "__main__":
    print(check())
