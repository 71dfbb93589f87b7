import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_e_agcn_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    torch.manual_seed(0)
    model = mod.AdaptiveGCN()
    start = {k: v.detach().clone() for k, v in model.named_parameters()}
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x, y = mod.samples(512, 1)
    losses = []
    for _ in range(3):
        for i in range(0, 512, 32):
            loss = F.binary_cross_entropy_with_logits(model(x[i : i + 32]), y[i : i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
    assert model.phi.weight.grad is None and model.theta.weight.grad is None
    assert torch.equal(model.phi.weight, start["phi.weight"]) and torch.equal(model.theta.weight, start["theta.weight"])
    moved = (model.gcn.weight - start["gcn.weight"]).abs().max().item()
    assert moved > 1e-2 and losses[-1] < losses[0], (moved, losses[0], losses[-1])
    return f"phi/theta unchanged (grad None) after 48 steps; gcn weights moved {moved:.3f}, loss {losses[0]:.3f} -> {losses[-1]:.3f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
