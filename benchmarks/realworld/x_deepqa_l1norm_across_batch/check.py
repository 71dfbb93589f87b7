"""Train with the batch-wide L1 normalisation and with a per-instance one; look at the loss floor and at how an
example's probabilities depend on the batch it is scored in."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F

_spec = importlib.util.spec_from_file_location("x_deepqa_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _per_instance(scores):
    return scores / scores.sum(dim=-1, keepdim=True)


def _train(fixed):
    torch.manual_seed(0)
    model = _t.AttentionSumReader()
    norm = _per_instance if fixed else _t.l1_normalize
    forward = lambda q, c: norm(F.softplus(torch.einsum("bd,bkd->bk", model.query(q), c)))  # noqa: E731
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    g = torch.Generator().manual_seed(1)
    for _ in range(300):
        (q, c), y = _t.make_batch(g)
        loss = _t.nll_of_probs(forward(q, c), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    (q, c), y = _t.make_batch(torch.Generator().manual_seed(9), n=64)
    with torch.no_grad():
        p64 = forward(q, c)
        p1 = forward(q[:1], c[:1])
    return loss.item(), p64[0].sum().item(), p1[0].sum().item(), (p64.argmax(1) == y).float().mean().item()


def _check() -> str:
    loss_bug, row64, row1, acc_bug = _train(False)
    loss_ok, row64_ok, _, acc_ok = _train(True)
    assert loss_bug > 2.5 and loss_ok < 1.0 and loss_bug > loss_ok + 2, (loss_bug, loss_ok)
    assert row64 < 0.05 and abs(row1 - 1) < 1e-4 and abs(row64_ok - 1) < 1e-4, (row64, row1, row64_ok)
    log_b = torch.log(torch.tensor(float(_t.B))).item()
    return (f"batch-wide L1 norm: final train NLL {loss_bug:.2f} (log {_t.B} = {log_b:.2f}),"
            f" an example's candidate probabilities sum to {row64:.3f} in a batch of 64 and {row1:.3f} alone, accuracy "
            f"{acc_bug:.2f}; per-instance norm: NLL {loss_ok:.2f}, accuracy {acc_ok:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
