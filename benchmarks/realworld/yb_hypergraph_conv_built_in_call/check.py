import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _load():
    spec = importlib.util.spec_from_file_location("yb_hyper_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, ((image, mask), target) = t["model"], t["batch"]
    hyper_keys = [k for k in model.state_dict() if k.startswith("hyper.")]
    assert hyper_keys == ["hyper.edge_weight", "hyper.theta"], hyper_keys     # no conv weights are ever stored

    model.eval()
    with torch.no_grad():
        z = model.enc(torch.cat([image * (1 - mask), mask], 1))
        a, b = model.hyper(z), model.hyper(z)
    nondet = (a - b).abs().max().item()
    assert nondet > 1e-5, nondet                     # a deterministic layer would give exactly 0

    # the convs used at step k are never the ones updated: track the graph's leaf tensors
    model.train()
    opt = t["optimizer"](model.parameters())
    n_throwaway = 0
    for _ in range(5):
        convs = []
        orig = torch.nn.Conv2d.forward

        def spy(self, x, _orig=orig):
            if self not in set(model.modules()):
                convs.append(self)
            return _orig(self, x)

        torch.nn.Conv2d.forward = spy
        try:
            opt.zero_grad()
            F.l1_loss(model(image, mask), target).backward()
            opt.step()
        finally:
            torch.nn.Conv2d.forward = orig
        in_opt = {id(p) for g in opt.param_groups for p in g["params"]}
        assert convs and not any(id(p) in in_opt for c in convs for p in c.parameters())
        n_throwaway += len(convs)
    assert n_throwaway == 10, n_throwaway            # 2 new convs per step, 5 steps
    return (f"hypergraph block stores only {hyper_keys}; its output for the same input differs by {nondet:.1e} between two eval-mode calls; "
            f"5 training steps used {n_throwaway} throw-away Conv2d modules, none in the optimizer")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
