import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_d_molgen_vae_recon_counts_pad_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for epoch in range(3):
        for i in range(0, len(x), 64):
            opt.zero_grad()
            loss_fn(model(x[i : i + 64]), y[i : i + 64]).backward()
            opt.step()
    vx, vy = t["val_data"]
    with torch.no_grad():
        out = model(vx)
        loss = loss_fn(out, vy).item()
        logged_acc = t["metric_fn"](out, vy)
        real = vy != mod.PAD
        real_acc = (out.argmax(-1)[real] == vy[real]).float().mean().item()
    assert logged_acc > 0.8 and real_acc < 0.4 and real.float().mean() < 0.2, (loss, logged_acc, real_acc)
    return (f"val loss {loss:.2f}, logged token accuracy {logged_acc:.2f}, accuracy on the non-padding characters "
            f"{real_acc:.2f} ({100 * real.float().mean():.0f}% of positions are real characters)")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
