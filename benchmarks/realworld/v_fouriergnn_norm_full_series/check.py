"""Self-contained: a trending series normalised with statistics of the whole series (test part included)
versus the training part only. With the leak, the training inputs change when only the test period changes,
and the test split looks already centred, which a train-only normaliser would never give."""

import torch


def _series(extra_shift: float):
    g = torch.Generator().manual_seed(0)
    t = torch.arange(1000, dtype=torch.float32)
    x = 0.01 * t + torch.sin(t / 10) + 0.3 * torch.randn(1000, generator=g)
    x[900:] += extra_shift  # only the test period differs
    return x


def _split(x, leak: bool):
    tr, te = x[:700], x[900:]
    ref = x if leak else tr
    m, s = ref.mean(), ref.std()
    return (tr - m) / s, (te - m) / s


def _check() -> str:
    a_tr, a_te = _split(_series(0.0), leak=True)
    b_tr, _ = _split(_series(5.0), leak=True)
    drift = (a_tr - b_tr).abs().max().item()
    c_tr, _ = _split(_series(0.0), leak=False)
    d_tr, _ = _split(_series(5.0), leak=False)
    drift_ok = (c_tr - d_tr).abs().max().item()
    _, ok_te = _split(_series(0.0), leak=False)
    assert drift > 0.1 and drift_ok < 1e-6, (drift, drift_ok)
    assert abs(a_te.mean().item()) < abs(ok_te.mean().item()) - 0.5, (a_te.mean().item(), ok_te.mean().item())
    return (
        f"whole-series stats: changing only the test period moves train inputs by up to {drift:.2f} "
        f"(train-only stats: {drift_ok:.1e}); test mean after scaling {a_te.mean():.2f} vs {ok_te.mean():.2f} train-only"
    )


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
