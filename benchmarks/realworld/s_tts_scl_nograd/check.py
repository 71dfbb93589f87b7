"""Train the target: the speaker consistency term stays flat and gives the generator no gradient; computing the
encoder's input with gradients enabled makes it move."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _load():
    spec = importlib.util.spec_from_file_location("s_tts_scl_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _scl(model, batch):
    (text, spk), (_, emb_ref) = batch
    _, emb = model(text, spk)
    return (1 - F.cosine_similarity(emb, emb_ref, dim=-1)).mean()


def _train(mod, fixed):
    t = mod.make_target()
    model, batch = t["model"], t["batch"]
    if fixed:
        enc = model.speaker_encoder
        enc.forward = lambda wav: F.normalize(enc.proj(torch.log1p(enc.stft(wav).abs())), dim=-1)
    opt = t["optimizer"](model.parameters())
    # gradient of the SCL term alone on the generator
    model.zero_grad()
    scl = _scl(model, batch)
    g = 0.0
    if scl.requires_grad:
        scl.backward()
        g = sum(p.grad.abs().sum().item() for p in model.gen.parameters() if p.grad is not None)
    scl0 = _scl(model, batch).item()
    for _ in range(150):
        opt.zero_grad()
        loss = t["loss_fn"](model(*batch[0]), batch[1])
        loss.backward()
        opt.step()
    return scl0, _scl(model, batch).item(), g


def _check() -> str:
    mod = _load()
    b0, b1, bg = _train(mod, fixed=False)
    f0, f1, fg = _train(mod, fixed=True)
    assert bg == 0.0, bg
    assert abs(b1 - b0) < 0.15 * b0, (b0, b1)
    assert fg > 0 and f1 < 0.5 * f0, (f0, f1, fg)
    return (f"speaker-consistency loss {b0:.3f} -> {b1:.3f} over 150 steps, its gradient on the generator {bg:.1f}; "
            f"with the encoder input kept in the graph {f0:.3f} -> {f1:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
