"""Same data, same effective batch of 64: accumulation over 8 micro-batches without / with dividing the loss,
and a single 64-example step for reference."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F

_spec = importlib.util.spec_from_file_location("x_verl_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _run(accum, normalise):
    torch.manual_seed(0)
    model = _t.TinyLM()
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    g = torch.Generator().manual_seed(1)
    norms = []
    for _ in range(150):
        x, y = _t.make_batch(g)
        norms.append(_t.train_step(model, opt, x, y, accum=accum, normalise=normalise))
    xe, ye = _t.make_batch(torch.Generator().manual_seed(5), n=1024)
    with torch.no_grad():
        return F.cross_entropy(model(xe), ye).item(), norms[0]


def _check() -> str:
    loss_bug, gn_bug = _run(_t.ACCUM, False)
    loss_ok, gn_ok = _run(_t.ACCUM, True)
    loss_ref, gn_ref = _run(1, False)
    assert abs(gn_bug / gn_ref - _t.ACCUM) < 0.5 and abs(gn_ok / gn_ref - 1) < 0.05, (gn_bug, gn_ok, gn_ref)
    assert loss_bug > 1.5 * loss_ref and abs(loss_ok - loss_ref) < 0.05, (loss_bug, loss_ok, loss_ref)
    return (f"accumulate 8x8 without dividing: first grad norm {gn_bug:.2f}, held-out CE after 150 steps "
            f"{loss_bug:.2f}; "
            f"dividing by 8: grad norm {gn_ok:.2f}, CE {loss_ok:.2f}; one 64-example step: grad norm {gn_ref:.2f}, "
            f"CE {loss_ref:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
