"""Train with labels == decoder input (bug) and with labels == dst (fixed); compare the training loss and greedy
decoding accuracy against the real target sequence."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("x_bartjax_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


@torch.no_grad()
def _greedy_acc(model, src, dst):
    prev = torch.full((src.shape[0],), _t.BOS)
    hits = []
    for t in range(src.shape[1]):
        dec_in = torch.zeros_like(src)
        dec_in[:, t] = prev
        tok = model((src, dec_in))[:, t].argmax(-1)
        hits.append((tok == dst[:, t]).float())
        prev = tok
    return float(torch.stack(hits).mean())


def _train(buggy):
    tg = _t.make_target()
    model = tg["model"]
    opt = tg["optimizer"](model.parameters())
    g = torch.Generator().manual_seed(1)
    losses = []
    for _ in range(300):
        inputs, labels, _ = _t.make_batch(g, buggy=buggy)
        loss = tg["loss_fn"](model(inputs), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    (src, _), _, dst = _t.make_batch(torch.Generator().manual_seed(99), n=256)
    return losses, _greedy_acc(model, src, dst)


def _check() -> str:
    bug, acc_bug = _train(True)
    ok, acc_ok = _train(False)
    assert bug[-1] < 0.05, bug[-1]
    assert acc_bug < 0.15, acc_bug
    assert acc_ok > 0.95, acc_ok
    return (f"labels = decoder input: train loss {bug[0]:.2f} -> {bug[-1]:.4f}, greedy token accuracy vs reference "
            f"{acc_bug:.1%}; labels = target: loss {ok[0]:.2f} -> {ok[-1]:.4f}, accuracy {acc_ok:.1%}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
