import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_k_mlm_predicts_only_padding_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, masked_only):
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for epoch in range(3):
        for i in range(0, len(x), 32):
            out = model(x[i : i + 32])
            labels = y[i : i + 32]
            if masked_only:
                loss = F.cross_entropy(out.reshape(-1, mod.VOCAB),
                                       labels.masked_fill(x[i : i + 32] != mod.MASK, -100).reshape(-1))
            else:
                loss = t["loss_fn"](out, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    xv, yv = t["val_data"]
    with torch.no_grad():
        pred = model(xv).argmax(-1)
    at_mask = xv == mod.MASK
    pad_frac = (pred[at_mask] == mod.PAD).float().mean().item()
    acc = (pred[at_mask] == yv[at_mask]).float().mean().item()
    return loss.item(), pad_frac, acc


def _check() -> str:
    mod = _load()
    loss_bug, pad_bug, acc_bug = _train(mod, masked_only=False)
    loss_fix, pad_fix, acc_fix = _train(mod, masked_only=True)
    assert pad_bug > 0.8 and acc_bug < 0.05, (pad_bug, acc_bug)
    assert acc_fix > 0.3 and pad_fix < 0.05, (acc_fix, pad_fix)
    assert loss_bug < 0.5 * loss_fix, (loss_bug, loss_fix)
    return (
        f"loss over all 64 positions: {loss_bug:.2f}, {pad_bug:.0%} of masked tokens predicted as [PAD], "
        f"masked-token accuracy {acc_bug:.1%}; loss on masked positions only: {loss_fix:.2f}, accuracy {acc_fix:.1%}"
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
