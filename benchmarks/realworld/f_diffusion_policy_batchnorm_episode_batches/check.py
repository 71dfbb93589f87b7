import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_f_diffusion_policy_bn_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(norm):
    mod = _load()
    t = mod.make_target()
    torch.manual_seed(0)
    model = mod.ObsEncoderPolicy(norm)
    opt = t["optimizer"](model.parameters())
    train_accs = []
    for _ in range(8):
        for x, y in t["train_data"]:
            out = model(x)
            loss = t["loss_fn"](out, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            train_accs.append(t["metric_fn"](out.detach(), y))
    model.eval()
    with torch.no_grad():
        val = [t["metric_fn"](model(x), y) for x, y in t["val_data"]]
    return sum(train_accs[-48:]) / 48, sum(val) / len(val)


def _check() -> str:
    tr_bn, ev_bn = _run("batch")
    tr_gn, ev_gn = _run("group")
    assert tr_bn > 0.9 and ev_bn < 0.7, (tr_bn, ev_bn)
    assert ev_gn > 0.9, (tr_gn, ev_gn)
    return (
        f"BatchNorm: train-batch accuracy {tr_bn:.2f}, eval {ev_bn:.2f}; GroupNorm: train {tr_gn:.2f}, eval {ev_gn:.2f}"
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
