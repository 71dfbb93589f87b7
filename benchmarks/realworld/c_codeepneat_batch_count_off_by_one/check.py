import torch


def _accuracy(pred, target, bs):
    acc, count = 0.0, 0
    for batch_idx, i in enumerate(range(0, len(target), bs)):
        acc += (pred[i : i + bs] == target[i : i + bs]).float().mean().item()
        count = batch_idx
    return acc / count * 100


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    target = torch.randint(0, 10, (1000,), generator=g)
    pred = torch.where(torch.arange(1000) % 4 != 0, target, (target + 1) % 10)  # exactly 75% right
    a250, a500, a32 = (_accuracy(pred, target, bs) for bs in (250, 500, 32))
    assert abs(a250 - 100) < 1e-6 and abs(a500 - 150) < 1e-6 and 75 < a32 < 80, (a250, a500, a32)
    return f"a 75%-accurate net is reported at {a32:.1f}% (bs 32), {a250:.0f}% (bs 250), {a500:.0f}% (bs 500)"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
