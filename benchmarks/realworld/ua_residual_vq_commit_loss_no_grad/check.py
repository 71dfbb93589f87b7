import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("ua_residual_vq_commit_loss_no_grad_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _enc_grad(model, loss):
    if not loss.requires_grad:
        return torch.zeros_like(model.enc[0].weight)
    g = torch.autograd.grad(loss, model.enc[0].weight, retain_graph=True, allow_unused=True)[0]
    return torch.zeros_like(model.enc[0].weight) if g is None else g


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    x, _ = t["batch"]
    _, commit = model(x)
    norms = [_enc_grad(model, commit[i]).norm().item() for i in range(len(commit))]
    assert norms[0] > 1e-6, norms
    assert all(n == 0.0 for n in norms[1:]), norms
    return ("encoder-gradient norm of each quantizer's commitment loss: "
            + ", ".join(f"q{i}={n:.2e}" for i, n in enumerate(norms))
            + f" (loss values {', '.join(f'{v:.3f}' for v in commit.tolist())})")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
