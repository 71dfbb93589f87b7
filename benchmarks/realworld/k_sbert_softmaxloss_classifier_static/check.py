import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_k_sbert_softmaxloss_classifier_static_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    head = mod.softmax_loss.classifier
    head_before = head.weight.detach().clone()
    enc_before = model.proj.weight.detach().clone()
    (a, b), y = t["train_data"]
    grad_norms, losses = [], []
    for _ in range(5):
        for i in range(0, len(y), 32):
            opt.zero_grad()
            head.zero_grad()
            loss = loss_fn(model(a[i : i + 32], b[i : i + 32]), y[i : i + 32])
            loss.backward()
            grad_norms.append(head.weight.grad.norm().item())
            losses.append(loss.item())
            opt.step()
    head_moved = (head.weight - head_before).abs().max().item()
    enc_moved = (model.proj.weight - enc_before).abs().max().item()
    assert head_moved == 0.0 and min(grad_norms) > 1e-4 and enc_moved > 1e-3, (head_moved, min(grad_norms), enc_moved)
    return (
        f"after {len(losses)} steps the classifier weights moved by {head_moved:.1e} "
        f"(grad norm every step >= {min(grad_norms):.2e}) while the encoder moved by {enc_moved:.3f}"
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
