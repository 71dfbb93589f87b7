import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_a_causal_decoder_no_tgt_mask_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    (x,), y = t["batch"]
    model.eval()
    with torch.no_grad():
        base = model(x)
        x2 = x.clone()
        x2[:, -1] = (x2[:, -1] + 1) % 32        # change only the last token
        leak = (model(x2)[:, 0] - base[:, 0]).abs().max().item()
    model.train()
    opt = t["optimizer"](model.parameters())
    for _ in range(60):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
    assert leak > 1e-4, leak
    assert loss.item() < 1.0, loss.item()       # random next tokens: an honest model stays near ln(32)=3.47
    return (f"logits at position 0 change by {leak:.3f} when only the last token changes; "
            f"loss on random tokens falls to {loss.item():.3f} in 60 steps")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny tensors: thread start-up costs more than the math
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
