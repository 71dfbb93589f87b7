import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_w_sasrec_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    torch.manual_seed(0)
    m = mod.SASRec(maxlen=30).eval()
    torch.manual_seed(0)
    mm = mod.SASRec(maxlen=30, mask_padding=True).eval()
    mm.load_state_dict(m.state_dict())
    hist = [5, 17, 3, 42, 9]
    with torch.no_grad():
        # the same history, left-padded to 10 and to 30; padding rows are all-zero after the timeline mask,
        # so with the history at the same absolute positions only the number of visible pad keys differs
        x10 = mod.left_pad(hist, 10)
        x30 = mod.left_pad(hist, 30)
        m.pos_emb.weight.data[:] = 0.0
        mm.pos_emb.weight.data[:] = 0.0
        d_bad = (m(x10.unsqueeze(0)) - m(x30.unsqueeze(0))).abs().max().item()
        d_ok = (mm(x10.unsqueeze(0)) - mm(x30.unsqueeze(0))).abs().max().item()
        top_bad = (m(x10.unsqueeze(0)).topk(10).indices != m(x30.unsqueeze(0)).topk(10).indices).any().item()
    assert d_bad > 1e-3 and d_ok < 1e-5, (d_bad, d_ok)
    return (f"same 5-item history with 5 vs 25 leading pads: scores differ by up to {d_bad:.3f} "
            f"(top-10 changed: {bool(top_bad)}); with padding keys masked: {d_ok:.1e}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
