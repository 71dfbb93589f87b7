import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("wd_packed_rnn_hidden_unsorted_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model = t["model"].eval()
    (text, lengths), _ = t["batch"]
    with torch.no_grad():
        batched = model(text, lengths)
        alone = torch.cat([model(text[i:i + 1], lengths[i:i + 1]) for i in range(text.size(0))])
        perm = torch.randperm(text.size(0), generator=torch.Generator().manual_seed(0))
        permuted = model(text[perm], lengths[perm])
    d_alone = (batched - alone).abs().max().item()
    d_perm = (permuted - batched[perm]).abs().max().item()
    n_rows = int(((batched - alone).abs().amax(-1) > 1e-4).sum())
    assert d_alone > 1e-2, d_alone
    assert d_perm > 1e-2, d_perm
    return (f"logits of {n_rows}/{text.size(0)} sentences change when scored inside the batch vs alone "
            f"(max diff {d_alone:.3f}); shuffling the batch changes them by {d_perm:.3f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
