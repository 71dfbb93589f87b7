import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_g_cudnn_rnn_state_carried_in_eval_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _evaluate(model, vx, vy, order, reset):
    correct, outs = 0, {}
    with torch.no_grad():
        for b in order:
            if reset:
                model.reset_states()
            out = model(vx[b * 32 : (b + 1) * 32])
            outs[b] = out
            correct += (out.argmax(1) == vy[b * 32 : (b + 1) * 32]).sum().item()
    return correct / len(vx), outs


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(8):
        perm = torch.randperm(len(x))
        for i in range(0, len(x), 32):
            b = perm[i : i + 32]
            model.reset_states()  # training batches are shuffled; the reset is what randomised batch sizes gave
            opt.zero_grad()
            F.cross_entropy(model(x[b]), y[b]).backward()
            opt.step()
    vx, vy = t["val_data"]
    model.eval()
    fwd, outs_fwd = _evaluate(model, vx, vy, range(8), reset=False)
    again, _ = _evaluate(model, vx, vy, range(8), reset=False)
    rev, outs_rev = _evaluate(model, vx, vy, reversed(range(8)), reset=False)
    clean, _ = _evaluate(model, vx, vy, range(8), reset=True)
    drift = (outs_fwd[3] - outs_rev[3]).abs().max().item()
    assert drift > 0.1 and clean - min(fwd, again, rev) > 0.03, (fwd, again, rev, clean, drift)
    return (
        f"val accuracy {fwd:.3f} / {again:.3f} / {rev:.3f} over three passes (reset each batch: {clean:.3f}); "
        f"same batch's logits move by {drift:.2f} with batch order"
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
