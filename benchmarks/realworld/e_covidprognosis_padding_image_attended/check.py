import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_e_covidprognosis_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    torch.manual_seed(0)
    model = mod.SequenceRisk().eval()
    g = torch.Generator().manual_seed(5)
    feats = torch.randn(2, 4, 16, generator=g)
    lens = torch.tensor([4, 3])
    other = feats.clone()
    other[1, 3] = torch.randn(16, generator=g) * 3  # a different filler image
    with torch.no_grad():
        a = model(feats, lens)[1].item()
        b = model(other, lens)[1].item()
        alone = model(feats[1:2, :3], lens[1:2]).item()
        enc = model.encoder
        masked = enc(model.proj(feats), src_key_padding_mask=torch.tensor([[False] * 4, [False] * 3 + [True]]))
        m_alone = enc(model.proj(feats[1:2, :3]))
    assert abs(a - b) > 1e-3 and abs(a - alone) > 1e-3, (a, b, alone)
    assert torch.allclose(masked[1, :3], m_alone[0], atol=1e-5)
    return f"3-image patient: output {a:.4f} with one filler image, {b:.4f} with another, {alone:.4f} unpadded"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
