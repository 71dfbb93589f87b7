"""The evaluation loop of the diff, on a model that is right on every example."""

import torch


def _evaluate(model, x, y, batch_size, full_batches_only):
    correct = 0
    if full_batches_only:
        starts = [b * batch_size for b in range(len(x) // batch_size)]
    else:
        starts = list(range(0, len(x), batch_size))
    with torch.no_grad():
        for s in starts:
            correct += (model(x[s : s + batch_size]).argmax(1) == y[s : s + batch_size]).sum().item()
    return correct / len(x)


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    x = torch.randn(1000, 8, generator=g)
    y = (x[:, 0] > 0).long()
    model = torch.nn.Linear(8, 2)
    with torch.no_grad():
        model.weight.zero_()
        model.bias.zero_()
        model.weight[1, 0], model.weight[0, 0] = 10.0, -10.0  # a perfect classifier
    bug128 = _evaluate(model, x, y, 128, True)
    bug100 = _evaluate(model, x, y, 100, True)
    ok = _evaluate(model, x, y, 128, False)
    assert abs(bug128 - 0.896) < 1e-9 and bug100 == 1.0 and ok == 1.0, (bug128, bug100, ok)
    return f"a perfect model scores {bug128:.3f} at batch size 128, {bug100:.3f} at 100; true accuracy {ok:.3f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
