import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_g_mnist_mlp_softmax_then_ce_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, logits_out):
    torch.manual_seed(0)
    t = mod.make_target()
    model = t["model"]
    if logits_out:
        model.forward = lambda x, m=model: m.fc3(m.drop(F.relu(m.fc2(m.drop(F.relu(m.fc1(x)))))))
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    losses = []
    for _ in range(5):
        for i in range(0, len(x), 64):
            opt.zero_grad()
            loss = t["loss_fn"](model(x[i : i + 64]), y[i : i + 64])
            loss.backward()
            opt.step()
            losses.append(loss.item())
    model.eval()
    vx, vy = t["val_data"]
    with torch.no_grad():
        acc = t["metric_fn"](model(vx), vy)
    return sum(losses[-20:]) / 20, acc


def _check() -> str:
    mod = _load()
    (lb, ab), (lo, ao) = _train(mod, False), _train(mod, True)
    assert lb > 1.46 and lo < 0.5 and ao > ab + 0.25, (lb, ab, lo, ao)
    return (f"5 epochs: train loss {lb:.2f}, val acc {ab:.2f} with the softmax output; "
            f"loss {lo:.2f}, acc {ao:.2f} on raw logits")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
