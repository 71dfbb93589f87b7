import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_a_vit_scaling_after_softmax_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model = t["model"].eval()
    (imgs,), _ = t["batch"]
    seen = {}

    def grab(mod, inp, out):
        seen["qkv"] = out.detach()

    h = model.attn.qkv.register_forward_hook(grab)
    with torch.no_grad():
        model(imgs)
    h.remove()
    att = model.attn.last_att
    row_sum = att.sum(-1).mean().item()
    b, n, e3 = seen["qkv"].shape
    heads = model.attn.num_heads
    q, k, _ = seen["qkv"].reshape(b, n, 3, heads, e3 // 3 // heads).permute(2, 0, 3, 1, 4)
    energy = q @ k.transpose(-1, -2)
    d = q.size(-1)
    peak_bug = torch.softmax(energy, -1).amax(-1).mean().item()
    peak_ok = torch.softmax(energy / d ** 0.5, -1).amax(-1).mean().item()
    assert abs(row_sum - 1) > 0.5, row_sum
    assert peak_bug > peak_ok + 0.1, (peak_bug, peak_ok)
    return (f"attention rows sum to {row_sum:.3f}; mean max weight {peak_bug:.2f} from unscaled logits "
            f"vs {peak_ok:.2f} if divided by sqrt({d}) first")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny tensors: thread start-up costs more than the math
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
