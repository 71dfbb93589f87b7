import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 20, generator=g)
    y = ((x[:, :5].sum(1) + 0.5 * torch.randn(n, generator=g)) > 0).long()
    return x, y


def _net():
    return nn.Sequential(
        nn.Linear(20, 128),
        nn.BatchNorm1d(128),
        nn.ReLU(),
        nn.Dropout(0.5),
        nn.Linear(128, 128),
        nn.BatchNorm1d(128),
        nn.ReLU(),
        nn.Dropout(0.5),
        nn.Linear(128, 2),
    )


def _check_accuracy(model, data, restore):
    model.eval()
    with torch.no_grad():
        acc = (model(data[0]).argmax(1) == data[1]).float().mean().item()
    if restore:
        model.train()
    return acc


def _run(restore):
    torch.manual_seed(0)
    model = _net()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x, y = _data(2048, 1)
    val = _data(1024, 2)
    model.train()
    losses = []
    step = 0
    for _ in range(2):
        for i in range(0, len(x), 32):
            loss = F.cross_entropy(model(x[i : i + 32]), y[i : i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
            step += 1
            if step % 40 == 0:
                _check_accuracy(model, val, restore)
    # mean training loss over 20 steps just before and just after the first accuracy check (step 40)
    before, after = sum(losses[20:40]) / 20, sum(losses[40:60]) / 20
    return before, after, model.training


def _check() -> str:
    b_bad, a_bad, mode_bad = _run(False)
    b_ok, a_ok, mode_ok = _run(True)
    drop_bad, drop_ok = b_bad - a_bad, b_ok - a_ok
    assert not mode_bad and mode_ok, (mode_bad, mode_ok)
    assert drop_bad > 0.1 and drop_bad > 2 * drop_ok, (b_bad, a_bad, b_ok, a_ok)
    return (
        f"train loss {b_bad:.3f} -> {a_bad:.3f} right after the first accuracy check "
        f"(with train mode restored: {b_ok:.3f} -> {a_ok:.3f})"
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
