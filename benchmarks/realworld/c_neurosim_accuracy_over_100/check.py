import torch


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    n, bs = 10000, 20
    target = torch.randint(0, 10, (n,), generator=g)
    pred = torch.where(torch.rand(n, generator=g) < 0.9025, target, (target + 1) % 10)  # a ~90% classifier
    batches = [(pred[i : i + bs], target[i : i + bs]) for i in range(0, n, bs)]
    correct = 0
    for p, t in batches:
        correct += int(p.eq(t).sum())
    reported = 100.0 * correct / len(batches)
    right = 100.0 * correct / n
    assert reported > 100 and 85 < right < 95, (reported, right)
    return (
        f"{correct} correct of {n}: printed accuracy {reported:.0f}% (divided by {len(batches)} batches), "
        f"true {right:.1f}%"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
