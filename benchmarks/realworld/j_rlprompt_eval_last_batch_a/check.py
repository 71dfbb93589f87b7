"""The evaluation score keeps only the last batch's rewards: it jumps with the batch size and misses the set mean."""

import torch


def _rewards(model, x, y):
    with torch.no_grad():
        return (model(x).argmax(1) == y).float()


def _evaluate(model, x, y, batch_size, last_only):
    scores = []
    for i in range(0, len(x), batch_size):
        r = _rewards(model, x[i : i + batch_size], y[i : i + batch_size])
        scores = r if last_only else scores + [r]
    return scores.mean().item() if last_only else torch.cat(scores).mean().item()


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    x = torch.randn(300, 10, generator=g)
    y = (x[:, 0] + 0.8 * torch.randn(300, generator=g) > 0).long()
    order = x[:, 0].argsort(descending=True)  # the eval file is sorted (by length, say): easy cases come last
    x, y = x[order], y[order]
    torch.manual_seed(0)
    model = torch.nn.Linear(10, 2)
    opt = torch.optim.Adam(model.parameters(), lr=5e-2)
    for _ in range(100):
        opt.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    true = _evaluate(model, x, y, 32, last_only=False)
    reported = {bs: _evaluate(model, x, y, bs, last_only=True) for bs in (8, 32, 64)}
    assert all(v > true + 0.1 for v in reported.values()), (true, reported)
    shown = ", ".join(f"{v:.2f} (batch {bs})" for bs, v in reported.items())
    return f"accuracy over all 300 eval examples {true:.2f}; eval/score reports {shown}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
