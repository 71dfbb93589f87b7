import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_d_leafaudio_gabor_constraint_no_grad_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(t, model):
    opt = t["optimizer"](model.parameters())
    k0 = model.filterbank.kernel.detach().clone()
    h0 = model.head.weight.detach().clone()
    x, y = t["train_data"]
    for step in range(100):
        i = (step * 32) % len(x)
        opt.zero_grad()
        t["loss_fn"](model(x[i : i + 32]), y[i : i + 32]).backward()
        opt.step()
    moved = float((model.filterbank.kernel.detach() - k0).abs().max())
    head_moved = float((model.head.weight.detach() - h0).abs().max())
    return moved, head_moved, model.filterbank.kernel.grad


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    moved, head_moved, grad = _train(t, t["model"])
    assert moved == 0.0 and grad is None and head_moved > 0.05, (moved, grad, head_moved)

    class Constraint(torch.nn.Module):  # the same clamps with gradients kept
        def forward(self, kernel):
            mu = kernel[:, 0].clamp(0.0, 3.1416)
            sigma = kernel[:, 1].clamp(2.0, mod.KSIZE / 2)
            return torch.stack([mu, sigma], dim=1)

    torch.manual_seed(0)
    fixed = mod.Leaf()
    fixed.filterbank.constraint = Constraint()
    moved_fixed, _, _ = _train(t, fixed)
    assert moved_fixed > 0.05, moved_fixed
    return (
        f"100 Adam steps: Gabor kernel parameters moved {moved:.1e} (grad None), classifier head {head_moved:.3f}; "
        f"without torch.no_grad() in the constraint the kernel moves {moved_fixed:.3f}"
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
