import copy
import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_l_mscnn_density_relu_all_zero_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(model, t, epochs=15):
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(epochs):
        for i in range(0, len(x), 16):
            loss = t["loss_fn"](model(x[i : i + 16]), y[i : i + 16])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return loss.item()


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    init = copy.deepcopy(model)
    last = _train(model, t)
    xv, yv = t["val_data"]
    out = model(xv)
    loss = t["loss_fn"](out, yv)
    model.zero_grad()
    loss.backward()
    gsum = sum(float(p.grad.abs().sum()) for p in model.parameters())
    frac_pos = float((out > 0).float().mean())
    pre = model.out(F.relu(model.fuse(model.msb2(model.msb1(F.relu(model.stem(xv))))))).detach()
    assert frac_pos == 0.0 and gsum == 0.0 and float(pre.max()) < 0, (frac_pos, gsum, float(pre.max()))
    # same initialisation, without the output ReLU: counts are learned
    fixed = init
    fixed.forward = lambda img, m=fixed: m.out(F.relu(m.fuse(m.msb2(m.msb1(F.relu(m.stem(img)))))))
    _train(fixed, t)
    with torch.no_grad():
        err_fixed = (fixed(xv).sum((1, 2, 3)) - yv.sum((1, 2, 3))).abs().mean().item()
    true_cnt = yv.sum((1, 2, 3)).mean().item()
    assert err_fixed < 0.5 * true_cnt, (err_fixed, true_cnt)
    return (
        f"after training: {frac_pos:.0%} of output pixels > 0, max pre-ReLU output {float(pre.max()):.2e}, gradient sum "
        f"{gsum}, loss stuck at {last:.6f}; mean true count {true_cnt:.2f}; same init without the output ReLU: "
        f"count error {err_fixed:.2f}"
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
