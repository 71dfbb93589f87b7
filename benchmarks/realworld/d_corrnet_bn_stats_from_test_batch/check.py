import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_d_corrnet_bn_stats_from_test_batch_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _accuracy(t, model, bs):
    vx, vy = t["val_data"]
    preds = []
    with torch.no_grad():
        for i in range(0, len(vx), bs):
            preds.append(model(vx[i : i + bs]).argmax(1))
    return float((torch.cat(preds) == vy).float().mean())


def _check() -> str:
    t = _load().make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(2):
        for i in range(0, len(x), 2):
            opt.zero_grad()
            t["loss_fn"](model(x[i : i + 2]), y[i : i + 2]).backward()
            opt.step()
    model.eval()
    accs = {bs: _accuracy(t, model, bs) for bs in (1, 2, 3, 4)}
    vx, _ = t["val_data"]
    with torch.no_grad():
        alone = model(vx[:1])
        paired = model(vx[:2])[:1]
    assert not torch.allclose(alone, paired, atol=1e-4)
    assert max(accs.values()) - min(accs.values()) > 0.03, accs
    shown = ", ".join(f"{a:.3f} at batch size {bs}" for bs, a in accs.items())
    return f"trained with batch size 2, model.eval(): test accuracy {shown}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
