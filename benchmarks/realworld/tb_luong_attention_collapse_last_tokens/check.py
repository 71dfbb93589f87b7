import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("tb_luong_attention_collapse_last_tokens_target",
                                                  os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    (src, tgt_in), y = t["batch"]
    opt = t["optimizer"](model.parameters())
    for _ in range(30):
        opt.zero_grad()
        loss_fn(model(src, tgt_in), y).backward()
        opt.step()
    with torch.no_grad():
        model(src, tgt_in)
        attn = model.last_attention
        max_w = attn.max(-1).values.mean().item()
        entropy = -(attn.clamp_min(1e-12).log() * attn).sum(-1).mean().item()
    uniform = torch.log(torch.tensor(float(attn.size(-1)))).item()
    # with scores divided by sqrt(hidden) the same run keeps max weight ~0.2 and entropy ~2.0
    assert max_w > 0.85, max_w
    assert entropy < 0.4, entropy
    return (f"after 30 steps the attention rows are near one-hot: mean max weight {max_w:.2f}, "
            f"entropy {entropy:.2f} nats (uniform over {attn.size(-1)} source tokens = {uniform:.2f})")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
