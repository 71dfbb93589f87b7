import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_h_practical_rnn_model_built_twice_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(model, opt, data, epochs=6, bs=16):
    x, y = data
    for _ in range(epochs):
        for i in range(0, len(x), bs):
            opt.zero_grad()
            F.cross_entropy(model(x[i : i + bs]), y[i : i + bs]).backward()
            opt.step()


def _acc(model, data):
    x, y = data
    with torch.no_grad():
        return (model(x).argmax(1) == y).float().mean().item()


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    before = [p.detach().clone() for p in model.parameters()]
    _train(model, t["optimizer"](model.parameters()), t["train_data"])
    unchanged = all(torch.equal(a, p) for a, p in zip(before, model.parameters()))
    acc_bug = _acc(model, t["val_data"])
    torch.manual_seed(1)
    good = mod.CharRNN()
    _train(good, torch.optim.SGD(good.parameters(), lr=0.05, momentum=0.9), t["train_data"])
    acc_good = _acc(good, t["val_data"])
    assert unchanged and acc_bug < 0.35 and acc_good > 0.8, (unchanged, acc_bug, acc_good)
    return f"the trained model's weights never change (val acc {acc_bug:.2f}); an optimizer over its own params reaches {acc_good:.2f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
