import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("xb_sketch_colorize_reshape_tokens_target",
                                                  os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    m = _load()
    t = m.make_target()
    enc = t["model"].ref_enc
    (sketch, reference), _ = t["batch"]
    x = reference[:1]
    with torch.no_grad():
        fmap = enc.features(x)
        tokens = enc(x)
    b, ch = fmap.shape[:2]
    n_tok = tokens.shape[1]
    marker = torch.zeros_like(fmap)
    marker[:, :, 3, 5] = 1.0                                 # every channel of one spatial position
    moved = enc.to_tokens(marker)
    rows_hit = int((moved.abs().sum(-1) > 0).sum())
    expected = fmap.flatten(2).transpose(1, 2)
    same = torch.allclose(tokens, expected)
    assert not same
    assert rows_hit > 1, rows_hit
    return (f"one spatial position's {ch} channels are spread over {rows_hit} of the {n_tok} SCFT tokens "
            f"(a token should hold exactly one position); tokens differ from the position-wise layout")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
