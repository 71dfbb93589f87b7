import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_k_dca_grn_zero_init_relu_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, _ = t["train_data"]
    grn_lin = [g.to_aggregate[1] for g in model.grns]
    max_grad, losses = 0.0, []
    for step in range(40):
        i = (step * 16) % len(x)
        opt.zero_grad()
        loss = t["loss_fn"](model(x[i : i + 16]), x[i : i + 16])
        loss.backward()
        max_grad = max(max_grad, max(l.weight.grad.abs().max().item() for l in grn_lin))
        opt.step()
        losses.append(loss.item())
    max_w = max(l.weight.abs().max().item() for l in grn_lin)
    with torch.no_grad():
        frac_zero = (model.grns[-1].to_aggregate(model.emb(x[:8])) == 0).float().mean().item()
    assert max_w == 0.0 and max_grad == 0.0 and losses[-1] < losses[0] - 0.5, (max_w, max_grad, losses[0], losses[-1])
    return (
        f"after 40 steps (loss {losses[0]:.2f} -> {losses[-1]:.2f}) every GRN aggregation weight is still exactly 0 "
        f"(max |grad| seen {max_grad:.1e}); {frac_zero:.0%} of the aggregation outputs are 0"
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
