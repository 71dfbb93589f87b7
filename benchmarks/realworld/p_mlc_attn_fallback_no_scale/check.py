import importlib.util
from pathlib import Path

import torch


def _target():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("target_" + p.parent.name, p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m.make_target()


def _check() -> str:
    t = _target()
    model, (ids, _) = t["model"], t["batch"]
    with torch.no_grad():
        bad = model(ids)
        pk_bad = model.layers[0].last_attn.max(-1).values.mean().item()
        for layer in model.layers:
            layer.sm_scale = layer.dh ** -0.5
        ref = model(ids)
        pk_ref = model.layers[0].last_attn.max(-1).values.mean().item()
    cos = torch.nn.functional.cosine_similarity(bad, ref).mean().item()
    assert pk_bad > 0.4 and pk_ref < 0.2 and cos < 0.99, (pk_bad, pk_ref, cos)
    return f"unscaled scores: mean max attention prob {pk_bad:.2f} vs {pk_ref:.2f} scaled; embedding cosine to scaled model {cos:.3f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

