import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_n_mlbasics_penguins_softmax_layer_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, strip_softmax):
    t = mod.make_target()
    model = t["model"]
    fwd = model.forward
    if strip_softmax:
        model.forward = lambda x: model.fc3(torch.relu(model.fc2(torch.relu(model.fc1(x)))))
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    x, y = t["train_data"]
    losses = []
    for epoch in range(40):
        for i in range(0, len(x), 40):
            opt.zero_grad()
            loss = t["loss_fn"](model(x[i : i + 40]), y[i : i + 40])
            loss.backward()
            opt.step()
        losses.append(loss.item())
    xv, yv = t["val_data"]
    with torch.no_grad():
        acc = mod.accuracy(model(xv), yv)
    model.forward = fwd
    return losses, acc


def _check() -> str:
    mod = _load()
    bad, bad_acc = _train(mod, strip_softmax=False)
    ok, ok_acc = _train(mod, strip_softmax=True)
    floor = math.log(2 + math.e) - 1  # lowest CrossEntropyLoss reachable from 3 probabilities in [0, 1]
    assert min(bad) > floor and bad[-1] > 0.55, (min(bad), floor)
    assert ok[-1] < 0.1 and bad_acc > 0.9, (ok[-1], bad_acc)
    return (
        f"softmax output layer: loss {bad[0]:.3f} -> {bad[-1]:.3f} after 40 epochs (floor {floor:.3f}) at val acc {bad_acc:.2f}; "
        f"same net on logits: {ok[0]:.3f} -> {ok[-1]:.3f}"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
