"""A linear ranker trained with listwise cross entropy written as log(softmax(...)): once a negative's probability
underflows to exactly 0, 0 * log(0) makes the loss NaN; log_softmax stays finite."""

import torch
import torch.nn.functional as F


def _groups(n, seed):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(16, generator=torch.Generator().manual_seed(0))
    x = torch.randn(n, 3, 16, generator=g)  # candidate 0 is the relevant one
    x[:, 0] += 2.0 * w
    labels = torch.zeros(n, 3)
    labels[:, 0] = 1.0
    return 7.0 * x, labels  # raw, unnormalised matching features


def _train(stable: bool):
    torch.manual_seed(0)
    scorer = torch.nn.Linear(16, 1)
    opt = torch.optim.Adam(scorer.parameters(), lr=0.05)
    x, labels = _groups(512, 1)
    for epoch in range(1, 61):
        for i in range(0, 512, 64):
            logits = scorer(x[i : i + 64]).squeeze(-1)
            if stable:
                loss = -(labels[i : i + 64] * F.log_softmax(logits, -1)).sum(-1).mean()
            else:
                loss = -(labels[i : i + 64] * torch.log(F.softmax(logits, -1))).sum(-1).mean()
            if not torch.isfinite(loss):
                return epoch, loss.item()
            opt.zero_grad()
            loss.backward()
            opt.step()
    return None, loss.item()


def _check() -> str:
    nan_epoch, value = _train(stable=False)
    assert nan_epoch is not None and nan_epoch >= 2, (nan_epoch, value)
    ok_epoch, ok_value = _train(stable=True)
    assert ok_epoch is None, (ok_epoch, ok_value)
    return f"log(softmax) loss turns {value} at epoch {nan_epoch}; log_softmax still finite after 60 epochs ({ok_value:.2e})"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
