"""Train briefly, then score the same queries with the target's test routine in different batch compositions."""

import importlib.util
from pathlib import Path

import torch
from torch import nn

_spec = importlib.util.spec_from_file_location("n_protonet_bn_target", Path(__file__).with_name("target.py"))
T = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(T)


def _acc(model, x, y, order, bs):
    correct = 0
    for i in range(0, len(order), bs):
        idx = order[i:i + bs]
        correct += (T.evaluate(model, x[idx]).argmax(-1) == y[idx]).sum().item()
    return correct / len(order)


def _check() -> str:
    torch.manual_seed(0)
    model = T.Net()
    xtr, ytr = T.make_data(500, 2)
    xva, yva = T.make_data(200, 3)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(4)
    for epoch in range(5):
        perm = torch.randperm(500, generator=g)
        for i in range(0, 500, 50):
            idx = perm[i:i + 50]
            opt.zero_grad()
            nn.functional.cross_entropy(model(xtr[idx]), ytr[idx]).backward()
            opt.step()
    mixed = torch.randperm(200, generator=torch.Generator().manual_seed(9))
    by_class = torch.argsort(yva, stable=True)
    acc_mixed = _acc(model, xva, yva, mixed, 50)
    acc_grouped = _acc(model, xva, yva, by_class, 10)
    q = xva[:10]
    alone = T.evaluate(model, q)[0]
    with_others = T.evaluate(model, torch.cat([q[:1], xva[100:149]]))[0]
    shift = (alone - with_others).abs().max().item()
    assert model.training, "test routine expected to leave the model in training mode"
    assert abs(acc_mixed - acc_grouped) > 0.15 and shift > 0.1, (acc_mixed, acc_grouped, shift)
    return (f"same test queries: acc {acc_mixed:.2f} in shuffled batches of 50 vs {acc_grouped:.2f} in class-sorted "
            f"batches of 10; one query's logits move by {shift:.2f} when its batch-mates change")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
