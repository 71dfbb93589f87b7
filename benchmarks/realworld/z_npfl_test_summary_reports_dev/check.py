"""Train the MLP, then compare the logged test/accuracy with the dev accuracy and the real test accuracy."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F

_spec = importlib.util.spec_from_file_location("z_npfl_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _check() -> str:
    torch.manual_seed(0)
    train, dev, test = _t.make_split(512, 0, 2.2), _t.make_split(256, 1, 2.2), _t.make_split(1000, 2, 2.6)
    model = _t.make_model()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(5):
        for i in range(0, 512, 64):
            opt.zero_grad()
            F.cross_entropy(model(train[0][i:i + 64]), train[1][i:i + 64]).backward()
            opt.step()
    logged = _t.final_summaries(model, dev, test)
    _, true_test_acc = _t.evaluate(model, test)
    assert logged["test/accuracy"] == logged["dev/accuracy"], logged
    assert abs(true_test_acc - logged["test/accuracy"]) > 0.01, (true_test_acc, logged)
    assert logged["test/loss"] != logged["dev/loss"]
    return (f"logged test/accuracy {logged['test/accuracy']:.4f} == dev/accuracy {logged['dev/accuracy']:.4f}; "
            f"accuracy actually measured on the test split {true_test_acc:.4f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
