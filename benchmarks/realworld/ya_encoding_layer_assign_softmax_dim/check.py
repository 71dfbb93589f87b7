import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _load():
    spec = importlib.util.spec_from_file_location("ya_encoding_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"].eval()
    images, _ = t["batch"]
    enc = model.encoding
    with torch.no_grad():
        feat = model.features(images)
        B = feat.size(0)
        X = feat.view(B, enc.D, -1).transpose(1, 2)
        sl = mod.scaled_l2(X, enc.codewords, enc.scale)
        A = F.softmax(sl, dim=1)                       # what Encoding.forward computes
        per_feature = A.sum(2)                         # over the K codewords: a soft assignment should give 1
        per_codeword = A.sum(1)                        # over the N positions
        out = enc(feat)
        ref = mod.aggregate(A, X, enc.codewords)
        fixed = mod.aggregate(F.softmax(sl, dim=2), X, enc.codewords)
    N, K = X.size(1), enc.K
    assert torch.allclose(out, ref, atol=1e-5)
    assert torch.allclose(per_codeword, torch.ones_like(per_codeword), atol=1e-4)
    dev = (per_feature - 1).abs().max().item()
    assert dev > 0.5, dev
    assert abs(per_feature.mean().item() - K / N) < 1e-3
    ratio = (out.norm() / fixed.norm()).item()
    assert ratio < 0.2, ratio
    return (f"Encoding assignments (B={B}, N={N} positions, K={K} codewords): summed over codewords each feature gets "
            f"{per_feature.min().item():.3f}..{per_feature.max().item():.3f} (mean {per_feature.mean().item():.3f} = K/N), "
            f"summed over positions every codeword gets exactly 1.000; the encoded residuals are {ratio:.3f}x the norm "
            f"of a per-feature (over-K) soft assignment")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        torch.manual_seed(0)
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
