"""The target's probabilities sum to 1 over the batch, not over classes; one sample's output depends on the other
samples in its batch; and training with dim=0 is slower than with dim=1."""

import importlib.util
from pathlib import Path

import torch
from torch import nn


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("o_da_classifier_softmax_dim0_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, dim):
    t = mod.make_target()
    model = t["model"]
    model.softmax = nn.Softmax(dim=dim)
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    g = torch.Generator().manual_seed(0)
    losses = []
    for step in range(120):
        idx = torch.randint(0, len(x), (32,), generator=g)
        loss = t["loss_fn"](model(x[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            xv, yv = t["val_data"]
            losses.append(nn.functional.cross_entropy(model.fc(model.features(xv)), yv).item())
    return losses


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    x, _ = t["train_data"]
    with torch.no_grad():
        p = model(x[:32])
        row_sums, col_sums = p.sum(1), p.sum(0)
        alone = model(x[:8])[0]
        with_others = model(torch.cat([x[:1], x[100:107]]))[0]
    dep = (alone - with_others).abs().max().item()
    bad, good = _train(mod, 0), _train(mod, 1)
    assert (col_sums - 1).abs().max() < 1e-5 and (row_sums - 1).abs().max() > 0.1, row_sums[:4]
    assert dep > 1e-3, dep
    assert bad[-1] > 1.8 * good[-1] and bad[39] > good[39] + 0.05, (bad[39], good[39], bad[-1], good[-1])
    return (f"softmax(dim=0): columns sum to 1, rows to {row_sums.min():.2f}..{row_sums.max():.2f}; sample 0 output "
            f"changes by {dep:.3f} with other batch-mates; val CE after 120 steps {bad[-1]:.2f} (dim=0) vs {good[-1]:.2f} (dim=1)")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
