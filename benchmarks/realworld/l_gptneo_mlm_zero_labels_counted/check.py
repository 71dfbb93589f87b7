import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_l_gptneo_mlm_zero_labels_counted_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, loss_fn):
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    for _ in range(4):
        for x, y in t["train_data"]:
            opt.zero_grad()
            loss_fn(model(x), y).backward()
            opt.step()
    return t, model


def _check() -> str:
    mod = _load()
    t, model = _train(mod, mod.make_target()["loss_fn"])
    _, fixed = _train(mod, lambda o, y: F.cross_entropy(o.reshape(-1, mod.VOCAB), y.reshape(-1), ignore_index=0))
    vx, vy = t["val_data"][0]
    with torch.no_grad():
        out = model(vx)
        loss = t["loss_fn"](out, vy).item()
        sel = vy != 0
        masked_loss = F.cross_entropy(out[sel], vy[sel]).item()
        acc = t["metric_fn"](out, vy)
        zero_share = (vy == 0).float().mean().item()
        pred_zero = (out.argmax(-1)[sel] == 0).float().mean().item()
        acc_fixed = t["metric_fn"](fixed(vx), vy)
    assert zero_share > 0.8
    assert loss < 0.5 * masked_loss, (loss, masked_loss)
    assert acc < 0.5 and acc_fixed > acc + 0.3, (acc, acc_fixed)
    return (
        f"{zero_share:.0%} of label positions are 0 and counted: reported loss {loss:.2f} vs {masked_loss:.2f} on the "
        f"masked tokens; masked-token accuracy {acc:.2f} ({pred_zero:.0%} predicted as 0) vs {acc_fixed:.2f} with 0 labels ignored"
    )


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
