"""Compare the inverted scale (scores * sqrt(head_dim)) with the intended 1/sqrt(head_dim): attention saturation at
initialisation and the copy-task loss after the same short training."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("x_maxtext_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _run(divide):
    torch.manual_seed(0)
    model = _t.AttnLM(divide_by_scale=divide)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    ids, _ = _t.make_batch(torch.Generator().manual_seed(5), n=64)
    with torch.no_grad():
        p, _, _ = model.attention_probs(ids)
        rows = p[:, :, 4:]  # query positions with at least 5 visible keys
        max_p = float(rows.max(-1).values.mean())
    g = torch.Generator().manual_seed(1)
    losses = []
    for _ in range(250):
        x, y = _t.make_batch(g)
        loss = _t.lm_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return max_p, losses


def _check() -> str:
    sat_bug, bug = _run(True)
    sat_ok, ok = _run(False)
    spike_bug, spike_ok = max(bug[150:]), max(ok[150:])
    assert sat_bug > 0.9 and sat_ok < 0.6, (sat_bug, sat_ok)
    assert bug[60] > 1.0 and ok[60] < 0.1, (bug[60], ok[60])
    assert spike_bug > 10 * spike_ok, (spike_bug, spike_ok)
    return (f"scores x sqrt(d): mean max attention weight {sat_bug:.2f} at init, copy loss {bug[60]:.2f} at step 60, "
            f"late spikes up to {spike_bug:.3f}; scores / sqrt(d): max weight {sat_ok:.2f}, "
            f"loss {ok[60]:.3f} at step 60, late max {spike_ok:.4f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
