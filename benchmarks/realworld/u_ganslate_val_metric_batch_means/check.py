"""Self-contained: the same model and the same 5 validation volumes give different validation metrics with
batch_size 1 and batch_size 2 when each batch's mean is averaged over batches."""

import torch
from torch import nn


def mae(fake, real):
    return (fake - real).abs().mean().item()


def _validate(model, data, batch_size, per_batch):
    totals, n = 0.0, 0
    with torch.no_grad():
        for i in range(0, len(data[0]), batch_size):
            a, b = data[0][i:i + batch_size], data[1][i:i + batch_size]
            fake = model(a)
            if per_batch:
                totals += mae(fake, b); n += 1
            else:
                for j in range(len(a)):
                    totals += mae(fake[j:j + 1], b[j:j + 1]); n += 1
    return totals / n


def _check() -> str:
    torch.manual_seed(0)
    model = nn.Conv3d(1, 1, 3, padding=1)
    g = torch.Generator().manual_seed(1)
    a = torch.randn(5, 1, 8, 16, 16, generator=g)
    scale = torch.tensor([0.2, 0.4, 0.6, 0.8, 3.0]).view(5, 1, 1, 1, 1)  # last volume is much harder
    b = a * scale + 0.1 * torch.randn(5, 1, 8, 16, 16, generator=g)
    per_sample_1 = _validate(model, (a, b), 1, per_batch=True)
    per_batch_2 = _validate(model, (a, b), 2, per_batch=True)
    correct_2 = _validate(model, (a, b), 2, per_batch=False)
    assert abs(per_batch_2 - per_sample_1) > 0.05 * per_sample_1 and abs(correct_2 - per_sample_1) < 1e-6, (
        per_sample_1, per_batch_2, correct_2)
    return (f"val MAE of the same model on the same 5 volumes: {per_sample_1:.3f} with batch_size 1, "
            f"{per_batch_2:.3f} with batch_size 2 (mean of batch means); per-sample averaging gives {correct_2:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
