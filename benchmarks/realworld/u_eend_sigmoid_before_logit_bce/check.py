"""Train with the sigmoid in forward and the logits-based BCE, vs the same model returning raw scores."""
import importlib.util
import os

import torch

_HERE = os.path.dirname(os.path.abspath(__file__))


def _load():
    spec = importlib.util.spec_from_file_location("u_eend_target", os.path.join(_HERE, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, raw, steps=300):
    t = mod.make_target()
    model, (x, ts), loss_fn = t["model"], t["batch"], t["loss_fn"]
    fwd = (lambda inp: model.out(model.enc(inp))) if raw else model
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_fn(fwd(x), ts)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    with torch.no_grad():
        acc = ((torch.sigmoid(fwd(x)) > 0.5).float() == ts).float().mean().item() if raw else \
              ((fwd(x) > 0.5).float() == ts).float().mean().item()
    return losses, acc


def _check() -> str:
    mod = _load()
    bad, bad_acc = _train(mod, raw=False)
    ok, ok_acc = _train(mod, raw=True)
    assert min(bad) > 0.45 and bad[0] - bad[-1] < 0.25, (bad[0], min(bad))
    assert ok[-1] < 0.15, ok[-1]
    return (f"sigmoid in forward + logits BCE: loss {bad[0]:.3f} -> {bad[-1]:.3f} (never below {min(bad):.3f}) "
            f"though frame accuracy {bad_acc:.2f}; raw outputs: loss {ok[0]:.3f} -> {ok[-1]:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
