"""Self-contained: top-1 error averaged as a mean of per-batch error rates (every batch weighted equally, the short
last batch included) versus errors counted over all images, for the same fixed predictions at several batch sizes."""

import torch


def _predictions(n=10000, classes=100):
    g = torch.Generator().manual_seed(0)
    labels = torch.arange(n) * classes // n            # validation set stored class by class
    hard = labels >= 90                                  # the last classes are the hard ones
    p_correct = torch.where(hard, torch.tensor(0.35), torch.tensor(0.80))
    correct = torch.rand(n, generator=g) < p_correct
    return correct


def _batch_mean_error(correct, bs):
    rates = [1 - correct[i:i + bs].float().mean() for i in range(0, len(correct), bs)]
    return torch.stack(rates).mean().item() * 100


def _counted_error(correct, bs):
    wrong = sum((~correct[i:i + bs]).sum().item() for i in range(0, len(correct), bs))
    return 100 * wrong / len(correct)


def _check() -> str:
    correct = _predictions()
    sizes = (100, 256, 3000)
    mean_of_batches = {bs: _batch_mean_error(correct, bs) for bs in sizes}
    counted = {bs: _counted_error(correct, bs) for bs in sizes}
    spread = max(mean_of_batches.values()) - min(mean_of_batches.values())
    assert max(counted.values()) - min(counted.values()) < 1e-9, counted
    assert spread > 5, mean_of_batches
    shown = ", ".join(f"bs {bs}: {mean_of_batches[bs]:.2f}%" for bs in sizes)
    return (f"top-1 error as mean of per-batch rates: {shown} for the same predictions; counted over all images: "
            f"{counted[100]:.2f}% at every batch size")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
