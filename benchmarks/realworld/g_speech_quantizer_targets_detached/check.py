import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_g_speech_quantizer_targets_detached_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, fixed):
    torch.manual_seed(0)
    t = mod.make_target()
    model = t["model"]
    if fixed:
        def forward(frames, m=model):
            feats = m.feature(frames)
            targets = m.quantizer(feats)
            masked = feats.clone()
            masked[:, mod.T // 2] = m.mask_emb
            ctx = m.context(masked.transpose(1, 2)).transpose(1, 2)
            return ctx[:, mod.T // 2], targets[:, mod.T // 2]
        model.forward = forward
    book0 = model.quantizer.codebook.detach().clone()
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(4):
        for i in range(0, len(x), 64):
            opt.zero_grad()
            t["loss_fn"](model(x[i : i + 64]), y[i : i + 64]).backward()
            opt.step()
    moved = (model.quantizer.codebook.detach() - book0).abs().max().item()
    return moved, model.quantizer.codebook.grad


def _check() -> str:
    mod = _load()
    (moved_bug, grad_bug), (moved_ok, _) = _train(mod, False), _train(mod, True)
    assert moved_bug == 0.0 and grad_bug is None and moved_ok > 0.05, (moved_bug, moved_ok)
    return f"4 epochs: codebook max change {moved_bug:.3g} (grad None) as written, {moved_ok:.3f} without the detach"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
