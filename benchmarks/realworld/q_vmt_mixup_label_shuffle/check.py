import importlib.util
import os

import torch
import torch.nn.functional as F


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_q_vmt_mixup_label_shuffle_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, same_perm):
    t = mod.make_target()
    model, (x, y) = t["model"], t["batch"]
    opt = t["optimizer"](model.parameters())
    gen = torch.Generator().manual_seed(7)
    torch.manual_seed(3)
    losses = []
    for _ in range(150):
        if same_perm:
            lam = torch.distributions.Beta(1.0, 1.0).sample((x.size(0), 1))
            idx = torch.randperm(x.size(0), generator=gen)
            yo = F.one_hot(y, 4).float()
            xm, ym = lam * x + (1 - lam) * x[idx], lam * yo + (1 - lam) * yo[idx]
        else:
            xm, ym = mod.mixup(x, F.one_hot(y, 4).float(), gen)
        opt.zero_grad()
        loss = mod.soft_ce(model(xm), ym)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return sum(losses[-20:]) / 20


def _run() -> str:
    mod = _load()
    bad = _train(mod, same_perm=False)
    good = _train(mod, same_perm=True)
    # how often the mixed label's dominant class is not the dominant image's class
    x, y = mod.make_target()["batch"]
    gen = torch.Generator().manual_seed(11)
    torch.manual_seed(11)
    lam = torch.full((x.size(0), 1), 0.3)
    idx_x = torch.randperm(x.size(0), generator=gen)
    idx_y = torch.randperm(x.size(0), generator=gen)
    mismatch = (y[idx_x] != y[idx_y]).float().mean().item()
    assert bad > good + 0.25, (bad, good)
    assert mismatch > 0.5, mismatch
    return (f"mixup loss after 150 steps: {bad:.3f} (independent shuffles) vs {good:.3f} (one shared shuffle); "
            f"{mismatch:.0%} of partner images carry another sample's label")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
