"""The latent mean of sentence 0 depends on the other sentences in the batch; flattening per sentence fixes it."""

import importlib.util
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("m_svae_target", HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fixed_encode(model, mod, ids):
    _, hidden = model.encoder(model.embedding(ids))
    hidden = hidden.transpose(0, 1).reshape(ids.size(0), mod.HID * model.hidden_factor)
    return model.hidden2mean(hidden)


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"].eval()
    ids = t["batch"][0]
    other = ids.clone()
    other[1:] = mod.make_data(n=32, seed=7)[1:]
    with torch.no_grad():
        alone, _ = model.encode(ids[:1])
        batched, _ = model.encode(ids)
        swapped, _ = model.encode(other)
        f_alone = _fixed_encode(model, mod, ids[:1])
        f_batched = _fixed_encode(model, mod, ids)
        f_swapped = _fixed_encode(model, mod, other)
    bug_gap = (batched[0] - swapped[0]).abs().max().item()
    bug_gap2 = (batched[0] - alone[0]).abs().max().item()
    fix_gap = max((f_batched[0] - f_swapped[0]).abs().max().item(), (f_batched[0] - f_alone[0]).abs().max().item())
    assert bug_gap > 1e-2 and bug_gap2 > 1e-2, (bug_gap, bug_gap2)
    assert fix_gap < 1e-5, fix_gap
    return (
        f"view(batch,-1) on (layers*dirs,B,H): z-mean of sentence 0 moves by {bug_gap:.3f} when the other sentences "
        f"change and by {bug_gap2:.3f} between batch sizes 1 and 32; per-sentence flattening: {fix_gap:.1e}"
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
