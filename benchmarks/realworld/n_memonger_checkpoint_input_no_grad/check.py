import importlib.util
import pathlib
import warnings

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_n_memonger_checkpoint_input_no_grad_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    x, y = t["train_data"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for epoch in range(2):
            for i in range(0, len(x), 16):
                opt.zero_grad()
                loss = t["loss_fn"](model(x[i : i + 16]), y[i : i + 16])
                loss.backward()
                opt.step()
    no_grad = sorted({n.split(".")[0] for n, p in model.named_parameters() if p.grad is None})
    frozen = [n for n, p in model.named_parameters() if torch.equal(p, before[n])]
    moved_fc = (model.fc.weight - before["fc.weight"]).abs().max().item()
    n_params = sum(1 for _ in model.parameters())
    assert no_grad == ["layer1", "layer2", "stem"], no_grad
    assert len(frozen) == n_params - 2 and moved_fc > 0, (len(frozen), moved_fc)
    warned = any("requires_grad" in str(w.message) for w in caught)
    return (
        f"after 16 steps {len(frozen)}/{n_params} parameter tensors are unchanged and have grad None "
        f"(stem, layer1, layer2); only fc moved (max {moved_fc:.3f}); requires_grad warning: {warned}"
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
