"""The simple models data_audit's label check fits: k-nearest neighbours, ridge regression and the nearest
class mean, each scored on rows it did not fit, and the standardisation they read features through.
Imports torch only.
"""

from __future__ import annotations

import torch


def standardise(x: torch.Tensor, ref: torch.Tensor) -> torch.Tensor:
    return (x - ref.mean(0)) / ref.std(0).clamp_min(1e-8)


def _score(pred: torch.Tensor, y: torch.Tensor, cls: bool) -> float:
    if cls:
        return float((pred == y).double().mean())
    resid = float(((pred - y) ** 2).sum())
    total = float(((y - y.mean()) ** 2).sum()) + 1e-12
    return 1 - resid / total  # R^2


def _knn(
    xa: torch.Tensor, ya: torch.Tensor, xb: torch.Tensor, cls: bool, loo: bool = False, k: int = 5
) -> torch.Tensor:
    d = torch.cdist(xb, xa)
    if loo:
        d.fill_diagonal_(float("inf"))
    idx = d.topk(min(k, len(xa) - int(loo)), largest=False).indices  # (nb, k)
    votes = ya[idx]
    return votes.mode(dim=1).values if cls else votes.double().mean(1)


def _linear(xa: torch.Tensor, ya: torch.Tensor, xb: torch.Tensor, cls: bool) -> torch.Tensor:
    """Ridge regression (one-vs-rest for classes) with a bias column."""

    def design(x: torch.Tensor) -> torch.Tensor:
        return torch.cat([x, torch.ones(len(x), 1, dtype=x.dtype, device=x.device)], 1)

    a, b = design(xa), design(xb)
    classes = ya.unique() if cls else None
    t = (ya[:, None] == classes[None]).double() if cls else ya.double()[:, None]
    w = torch.linalg.solve(a.T @ a + 1e-2 * torch.eye(a.shape[1], dtype=a.dtype), a.T @ t)
    out = b @ w
    return classes[out.argmax(1)] if cls else out[:, 0]


def _centroid(xa: torch.Tensor, ya: torch.Tensor, xb: torch.Tensor) -> torch.Tensor:
    """Nearest class mean: with few rows per feature it still finds a label spread thinly over many
    features (a sum of pixels), where ridge interpolates noise and kNN drowns in distance."""
    classes = ya.unique()
    means = torch.stack([xa[ya == c].mean(0) for c in classes])  # (C, D)
    return classes[torch.cdist(xb, means).argmin(1)]


def predictability(
    xt: torch.Tensor, yt: torch.Tensor, xv: torch.Tensor | None, yv: torch.Tensor | None, cls: bool
) -> dict[str, float]:
    """Held-out skill of simple models within train (kNN leave-one-out; ridge and, for classes, nearest
    class mean on a half split), on val, and within val alone (`val_within`, 16 rows or more)."""
    xs = standardise(xt, xt)
    half = len(xs) // 2
    within = [
        _score(_knn(xs, yt, xs, cls, loo=True), yt, cls),
        _score(_linear(xs[:half], yt[:half], xs[half:], cls), yt[half:], cls),
    ]
    if cls:
        within.append(_score(_centroid(xs[:half], yt[:half], xs[half:]), yt[half:], cls))
    out = {"train_heldout": max(within)}
    if xv is not None and yv is not None:
        xvs = standardise(xv, xt)
        on_val = [_score(_knn(xs, yt, xvs, cls), yv, cls), _score(_linear(xs, yt, xvs, cls), yv, cls)]
        if cls:
            on_val.append(_score(_centroid(xs, yt, xvs), yv, cls))
        out["val"] = max(on_val)
        if len(xv) >= 16:  # the same simple models within validation alone: do its labels follow its inputs?
            xw, vh = standardise(xv, xv), len(xv) // 2
            out["val_within"] = max(
                _score(_knn(xw, yv, xw, cls, loo=True), yv, cls),
                _score(_linear(xw[:vh], yv[:vh], xw[vh:], cls), yv[vh:], cls),
            )
    return out
