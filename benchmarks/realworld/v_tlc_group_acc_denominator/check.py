"""Self-contained: per-group (many/medium/few-shot) accuracy computed as in the diff vs. per-group counts."""
import torch


def _groups(preds, labels, many_classes, few_classes, buggy):
    correct = (preds == labels).float()
    many = torch.isin(labels, many_classes)
    few = torch.isin(labels, few_classes)
    medium = ~(many | few)
    out = {}
    for name, m in (("many", many), ("medium", medium), ("few", few)):
        denom = len(labels) if buggy else m.sum()
        out[name] = (correct[m].sum() / denom).item()
    return correct.mean().item(), out


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    n_cls, per_cls = 100, 100  # balanced test set, as in CIFAR-100-LT evaluation
    labels = torch.arange(n_cls).repeat_interleave(per_cls)
    # a long-tailed model: head classes right more often than tail classes
    p_right = torch.linspace(0.75, 0.10, n_cls)[labels]
    right = torch.rand(len(labels), generator=g) < p_right
    wrong = (labels + 1 + torch.randint(0, n_cls - 1, labels.shape, generator=g)) % n_cls
    preds = torch.where(right, labels, wrong)
    many, few = torch.arange(0, 35), torch.arange(70, 100)
    acc, bad = _groups(preds, labels, many, few, buggy=True)
    _, good = _groups(preds, labels, many, few, buggy=False)
    assert abs(sum(bad.values()) - acc) < 1e-5, (bad, acc)
    assert good["few"] > 3 * bad["few"] and good["many"] > 2 * bad["many"], (bad, good)
    return (f"overall {acc:.3f}; buggy groups many/med/few {bad['many']:.3f}/{bad['medium']:.3f}/{bad['few']:.3f} "
            f"(sum = overall) vs per-group {good['many']:.3f}/{good['medium']:.3f}/{good['few']:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
