import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_h_diffuseq_pad_predicted_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, t, ignore_pad):
    torch.manual_seed(0)
    model = mod.Generator()
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    losses = []
    for _ in range(10):
        for i in range(0, len(x), 32):
            logits = model(x[i : i + 32])
            yb = y[i : i + 32]
            if ignore_pad:
                loss = F.cross_entropy(logits.reshape(-1, mod.VOCAB), yb.reshape(-1), ignore_index=mod.PAD)
            else:
                loss = t["loss_fn"](logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
    vx, vy = t["val_data"]
    with torch.no_grad():
        pred = model(vx).argmax(-1)
    real = vy != mod.PAD
    word_acc = (pred == vy)[real].float().mean().item()
    pad_on_words = (pred == mod.PAD)[real].float().mean().item()
    return losses[0], losses[-1], word_acc, pad_on_words


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    first, last, acc_bug, pad_bug = _run(mod, t, False)
    _, _, acc_ok, _ = _run(mod, t, True)
    assert last < 0.5 * first and pad_bug > 0.25 and acc_ok > acc_bug + 0.2, (first, last, acc_bug, pad_bug, acc_ok)
    return (
        f"loss {first:.2f} -> {last:.2f}, yet {pad_bug:.0%} of real word positions decode to <PAD> "
        f"(word acc {acc_bug:.2f}); with pad left out of the loss word acc {acc_ok:.2f}"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
