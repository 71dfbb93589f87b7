import importlib.util
import pathlib

import torch
import torch.nn as nn

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_h_msdocs_dense_logsoftmax_dim0_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, dim):
    torch.manual_seed(0)
    t = mod.make_target()
    model = t["model"]
    model[-1] = nn.LogSoftmax(dim=dim)
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(5):
        for i in range(0, len(x), 64):
            opt.zero_grad()
            t["loss_fn"](model(x[i : i + 64]), y[i : i + 64]).backward()
            opt.step()
    vx, vy = t["val_data"]
    with torch.no_grad():
        accs = [t["metric_fn"](model(vx[i : i + 64]), vy[i : i + 64]) for i in range(0, len(vx), 64)]
        one_by_one = torch.cat([model(vx[i : i + 1]).argmax(1) for i in range(64)])
        solo_acc = (one_by_one == vy[:64]).float().mean().item()
    return sum(accs) / len(accs), solo_acc


def _check() -> str:
    mod = _load()
    (acc0, solo0), (acc1, solo1) = _train(mod, 0), _train(mod, 1)
    assert acc0 > 0.8 and solo0 < 0.3 and solo1 > 0.9, (acc0, solo0, acc1, solo1)
    return (f"5 epochs with LogSoftmax(dim=0): val accuracy {acc0:.2f} in batches of 64 but {solo0:.2f} one image "
            f"at a time; with dim=1: {acc1:.2f} and {solo1:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
