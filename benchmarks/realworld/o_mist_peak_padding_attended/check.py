"""Encode the same spectrum padded to its own length and padded to 60: the outputs differ when padded peaks are
attended; adding the mask makes them agree."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("o_mist_peak_padding_attended_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _masked_forward(layer, x, pad_mask):
    b, n, d = x.shape
    q, k, v = layer.qkv(x).view(b, n, 3, layer.h, layer.dk).permute(2, 0, 3, 1, 4)
    attn = q @ k.transpose(-1, -2) / layer.dk ** 0.5
    attn = attn.masked_fill(pad_mask[:, None, None, :], float("-inf")).softmax(-1)
    return layer.out((attn @ v).transpose(1, 2).reshape(b, n, d))


def _check() -> str:
    mod = _load()
    torch.manual_seed(0)
    model = mod.SpectrumEncoder().eval()
    short, pad_s = mod.make_spectra([12], 12, seed=3)
    long_, pad_l = mod.make_spectra([12], 60, seed=3)
    with torch.no_grad():
        a, b = model(short, pad_s), model(long_, pad_l)
        diff = (a - b).abs().max().item()
        cos = torch.nn.functional.cosine_similarity(a, b).item()
        for layer in model.attn:
            layer.forward = lambda x, m, layer=layer: _masked_forward(layer, x, m)
        fixed = (model(short, pad_s) - model(long_, pad_l)).abs().max().item()
    assert diff > 1e-2 and fixed < 1e-5, (diff, fixed)
    return (f"same 12-peak spectrum, padded to 12 vs 60: output differs by {diff:.3f} (cosine {cos:.3f}); "
            f"with the padding mask added to the scores: {fixed:.1e}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
