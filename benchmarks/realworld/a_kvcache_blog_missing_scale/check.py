import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_a_kvcache_blog_missing_scale_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model = t["model"].eval()
    (ids,), _ = t["batch"]
    with torch.no_grad():
        x = model.embed(ids)
        q, k = model.W_q(x), model.W_k(x)
        raw = q @ k.transpose(-2, -1)
        d_k = k.size(-1)
        causal = torch.ones(raw.shape[-2:], dtype=torch.bool).tril()
        last = raw[:, -1][:, causal[-1]]                     # last query row sees every key
        peak_now = torch.softmax(last, -1).amax(-1).mean().item()
        peak_scaled = torch.softmax(last / d_k ** 0.5, -1).amax(-1).mean().item()
    assert peak_now > 2 * peak_scaled, (peak_now, peak_scaled)
    return (f"score std {raw.std().item():.1f} for d_k={d_k}; last-row max attention {peak_now:.2f} "
            f"vs {peak_scaled:.2f} with the 1/sqrt(d_k) factor")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny tensors: thread start-up costs more than the math
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
