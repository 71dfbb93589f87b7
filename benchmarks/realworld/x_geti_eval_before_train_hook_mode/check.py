"""The eval-before-train hook switches the model to eval mode and never switches it back: the whole training run
happens in eval mode -- BatchNorm running statistics are never updated and Dropout is inactive."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("x_geti_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


class _RestoringHook(_t.EvalBeforeTrainHook):
    def before_train_epoch(self, runner):
        was_training = runner.model.training
        super().before_train_epoch(runner)
        runner.model.train(was_training)


def _run(hook):
    tg = _t.make_target()
    model = tg["model"]
    g = torch.Generator().manual_seed(1)
    x, y = _t.make_data(g)
    data = {"train": [(x[i:i + 64], y[i:i + 64]) for i in range(0, 512, 64)], "val": _t.make_data(g, n=256)}
    runner = _t.Runner(model, tg["optimizer"](model.parameters()), data, [hook])
    modes = []
    model.register_forward_pre_hook(lambda m, a: modes.append(m.training) if torch.is_grad_enabled() else None)
    runner.train(3)
    bn = model.net[1]
    return sum(modes) / len(modes), int(bn.num_batches_tracked), bn.running_mean.abs().mean().item()


def _check() -> str:
    frac, tracked, rmean = _run(_t.EvalBeforeTrainHook())
    ok_frac, ok_tracked, ok_rmean = _run(_RestoringHook())
    assert frac == 0.0 and tracked == 0 and rmean == 0.0, (frac, tracked, rmean)
    assert ok_frac == 1.0 and ok_tracked == 24 and ok_rmean > 0.5, (ok_frac, ok_tracked, ok_rmean)
    return (f"with the hook: {frac:.0%} of training forwards in train mode, BN batches tracked {tracked}, "
            f"|running_mean| {rmean:.2f}; hook restoring the mode: {ok_frac:.0%}, {ok_tracked} batches, "
            f"|running_mean| {ok_rmean:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
