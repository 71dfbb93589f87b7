"""Shows that a window's prediction depends on other rows, and that training stalls compared with transposing first."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("t_lstm_series_target", Path(__file__).with_name("target.py"))
T = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(T)


class _Fixed(T.LSTMBaseline):
    def forward(self, x):
        h, _ = self.lstm(x.t().reshape(T.LAGS, -1, 1))
        return self.out(h[-1]).squeeze(-1)


def _train(cls, X, y):
    torch.manual_seed(0)
    m = cls()
    opt = torch.optim.Adam(m.parameters(), lr=1e-2)
    for _ in range(120):
        loss = torch.nn.functional.mse_loss(m(X), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item(), m


def _check() -> str:
    X, y = T._series(64, 0)
    bug_loss, m = _train(T.LSTMBaseline, X, y)
    ok_loss, _ = _train(_Fixed, X, y)
    with torch.no_grad():
        p0 = m(X)[0].item()
        X2 = X.clone()
        X2[5:] += 1.0  # change other rows only
        p1 = m(X2)[0].item()
    assert abs(p1 - p0) > 1e-3, (p0, p1)
    assert bug_loss > 3 * ok_loss, (bug_loss, ok_loss)
    return (
        f"view without transpose: train MSE {bug_loss:.3f} vs {ok_loss:.3f} transposed; "
        f"row 0 prediction moves {abs(p1 - p0):.3f} when only rows 5+ change"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
