import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_h_fairseq_bidir_state_view_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fixed_combine(self, h_n):
    bsz = h_n.size(1)
    return h_n.view(self.layers, 2, bsz, -1).transpose(1, 2).contiguous().view(self.layers, bsz, -1)


def _train(mod, fixed):
    torch.manual_seed(0)
    t = mod.make_target()
    model = t["model"]
    if fixed:
        model.combine_directions = _fixed_combine.__get__(model)
    opt = t["optimizer"](model.parameters())
    for _ in range(6):
        for x, y in t["train_data"]:
            opt.zero_grad()
            F.cross_entropy(model(x), y).backward()
            opt.step()
    vx, vy = t["val_data"]
    with torch.no_grad():
        return t["metric_fn"](model(vx), vy), model


def _check() -> str:
    mod = _load()
    acc_bug, model = _train(mod, fixed=False)
    acc_fix, _ = _train(mod, fixed=True)
    x, _ = mod._sentences(4, 7)
    x2 = x.clone()
    x2[:, 1] = (x2[:, 1] + 3) % mod.VOCAB
    with torch.no_grad():
        moved = (model(x)[0] - model(x2)[0]).abs().max().item()
    assert moved > 1e-4, moved
    assert acc_fix > 0.9 and acc_bug < acc_fix - 0.15, (acc_bug, acc_fix)
    return (f"sentence 0's output moves by {moved:.3f} when sentence 1 changes; val accuracy {acc_bug:.2f} "
            f"with the view-merged states vs {acc_fix:.2f} when directions are split and transposed first")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
