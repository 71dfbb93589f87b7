import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("xb_lxmert_tiny_pretrain_few_epochs_target",
                                                  os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _tail(losses, k=6):
    return sum(losses[-k:]) / k


def _run() -> str:
    m = _load()
    torch.manual_seed(0)
    short = m.train(m.TinyCrossModal(), epochs=m.EPOCHS)
    torch.manual_seed(0)
    long = m.train(m.TinyCrossModal(), epochs=12 * m.EPOCHS)
    start = sum(short[:4]) / 4
    assert m.EPOCHS == 20
    assert _tail(short) > 0.8 * start, (_tail(short), start)       # the configured run does not memorise
    assert _tail(long) < 0.5 * start, (_tail(long), start)        # same code, more epochs: it does
    return (f"tiny-split MLM loss {start:.2f} -> {_tail(short):.2f} after {m.EPOCHS} epochs "
            f"({len(short)} steps); the same recipe run for {12 * m.EPOCHS} epochs reaches {_tail(long):.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
