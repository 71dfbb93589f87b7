"""Eight epochs with a test pass after each: the notebook's loop (never back to train mode) against one that switches back."""

import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_f_examples_bn_dropout_train_after_test_eval_target",
                                                  _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, back_to_train, epochs=8):
    torch.manual_seed(0)
    model = mod.make_net()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x, y = mod.data(640, 1)
    vx, vy = mod.data(1000, 2)
    model.train()
    losses, accs = [], []
    for _ in range(epochs):
        if back_to_train:
            model.train()
        total = 0.0
        for i in range(0, 640, 64):
            total += mod.train_step(model, (x[i : i + 64], y[i : i + 64]), opt, F.cross_entropy).item()
        losses.append(total / 10)
        accs.append(mod.test(model, vx, vy))
    return losses, accs


def _check() -> str:
    mod = _load()
    bug_loss, bug_acc = _run(mod, back_to_train=False)
    ok_loss, ok_acc = _run(mod, back_to_train=True)
    assert min(bug_loss) < min(ok_loss) - 0.1, (bug_loss, ok_loss)  # no dropout/batch stats: loss falls faster
    assert bug_acc[-1] < ok_acc[-1] - 0.08, (bug_acc, ok_acc)
    return (f"8 epochs: test accuracy {bug_acc[-1]:.2f} (min train loss {min(bug_loss):.2f}) when training stays in eval "
            f"mode after the first test pass, {ok_acc[-1]:.2f} (min train loss {min(ok_loss):.2f}) when train() is called")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
