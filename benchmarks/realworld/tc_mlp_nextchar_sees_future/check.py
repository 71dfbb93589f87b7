import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("tc_mlp_nextchar_sees_future_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    x, y = t["batch"]
    with torch.no_grad():
        base = model(x)
        x2 = x.clone()
        x2[:, -1] = (x2[:, -1] + 1) % mod.VOCAB          # change only the last character
        leak = (model(x2)[:, 0] - base[:, 0]).abs().max().item()
    opt = t["optimizer"](model.parameters())
    for _ in range(300):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
    g = torch.Generator().manual_seed(1)
    fresh = torch.randint(0, mod.VOCAB, (256, mod.T + 1), generator=g)
    with torch.no_grad():
        acc = t["metric_fn"](model(fresh[:, :-1]), fresh[:, 1:])
    assert leak > 1e-4, leak
    assert acc > 0.3, acc                # unseen random characters: an honest model stays near 1/16
    return (f"logits at position 0 move by {leak:.3f} when only the last character changes; "
            f"accuracy on unseen random characters reaches {acc:.2f} (chance {1 / mod.VOCAB:.2f})")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
