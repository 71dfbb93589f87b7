"""A reward model's evaluation loop, averaging the chosen score as in the diff (inside the loop) and after it."""

import torch
import torch.nn as nn


def _evaluate(model, batches, divide_inside):
    correct, total, scores = 0, 0, 0.0
    for step, (good, bad) in enumerate(batches):
        with torch.no_grad():
            chosen, rejected = model(good).squeeze(-1), model(bad).squeeze(-1)
        correct += (chosen > rejected).sum().item()
        total += chosen.shape[0]
        scores += chosen.mean().item()
        if divide_inside:
            scores = scores / (step + 1)
    if not divide_inside:
        scores = scores / (step + 1)
    return correct / total, scores


def _check() -> str:
    torch.manual_seed(0)
    model = nn.Linear(8, 1)
    with torch.no_grad():
        model.bias.fill_(2.5)
        model.weight.copy_(0.15 * torch.ones(1, 8))
    g = torch.Generator().manual_seed(1)
    batches = [(torch.randn(8, 8, generator=g) + 0.3, torch.randn(8, 8, generator=g)) for _ in range(100)]
    acc, true_score = _evaluate(model, batches, divide_inside=False)
    acc_bug, shown = _evaluate(model, batches, divide_inside=True)
    _, shown_few = _evaluate(model, batches[:10], divide_inside=True)
    assert acc == acc_bug and 2.0 < true_score < 3.5, (acc, true_score)
    assert shown < 0.1 * true_score and shown < shown_few, (shown, shown_few, true_score)
    return (f"same model, acc {acc:.2f}: reported chosen score {shown:.3f} over 100 batches, {shown_few:.3f} over 10, "
            f"true mean {true_score:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
