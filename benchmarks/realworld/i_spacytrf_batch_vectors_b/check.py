import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_i_spacytrf_batch_vectors_b_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    for x, y in t["train_data"]:
        opt.zero_grad()
        t["loss_fn"](model(x), y).backward()
        opt.step()
    model.eval()
    short = [5, 17, 23, 8]
    long = list(range(1, 30))
    with torch.no_grad():
        alone = model.vectors(mod.pad_batch([short]))[0]
        batched = model.vectors(mod.pad_batch([short, long]))[0]

        def honoured(seqs):  # padding filled with the pad value, as pad_batch is asked to
            out = torch.full((len(seqs), max(len(s) for s in seqs)), mod.PAD, dtype=torch.long)
            for i, s in enumerate(seqs):
                out[i, : len(s)] = torch.as_tensor(s)
            return out

        alone_ok = model.vectors(honoured([short]))[0]
        batched_ok = model.vectors(honoured([short, long]))[0]
    rel = ((alone - batched).norm() / alone.norm()).item()
    rel_ok = ((alone_ok - batched_ok).norm() / alone_ok.norm()).item()
    assert rel > 0.05 and rel_ok < 1e-4, (rel, rel_ok)
    return f"the same sentence's vector changes by {100 * rel:.0f}% when batched with a longer one (padding kept out: {rel_ok:.1e})"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
