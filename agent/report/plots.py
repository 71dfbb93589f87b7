"""PNG pictures of what the probes measured (matplotlib, an optional extra: `pip install debug-agent[plots]`).

Everything drawn here is already in the report's probe measurements: plotting never computes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from debug_agent.schemas import ProbeResult, Report


def available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _figure() -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=110)
    return fig, ax


def _dependency(r: ProbeResult, ax: Any) -> bool:
    rows = r.measurements.get("cross_leak_by_row")
    if not isinstance(rows, list) or not rows:
        return False
    leaking = set(r.measurements.get("leaking_input_rows") or [])
    colors = ["#c0392b" if i in leaking else "#7f8c8d" for i in range(len(rows))]
    ax.bar(range(len(rows)), [max(float(v), 1e-12) for v in rows], color=colors)
    ax.set_yscale("log")
    ax.set_xlabel("input row")
    ax.set_ylabel("gradient reaching other rows' outputs\n(relative to the largest total)")
    src = r.measurements.get("exemplar_sources")
    ax.set_title(
        "Dependency map: red rows leak into other rows"
        + (f"\noutput row {r.measurements.get('exemplar_row')} reads rows {src[:10]}" if src else ""),
        fontsize=9,
    )
    return True


def _grad_flow(r: ProbeResult, ax: Any) -> bool:
    layers = r.measurements.get("layer_grad_rms")
    if not isinstance(layers, list) or len(layers) < 2:
        return False
    ax.bar(range(len(layers)), [max(float(g), 1e-30) for _, g in layers], color="#2980b9")
    ax.set_yscale("log")
    ax.set_xticks(range(len(layers)), [str(n) for n, _ in layers], rotation=60, fontsize=7)
    ax.set_xlabel("layer (forward order)")
    ax.set_ylabel("RMS gradient")
    ax.set_title("Gradient flow through depth", fontsize=9)
    return True


def _lr_curve(r: ProbeResult, ax: Any) -> bool:
    curve = r.measurements.get("curve")
    if not isinstance(curve, list) or len(curve) < 3:
        return False
    ax.plot([c[0] for c in curve], [c[1] for c in curve], color="#2c3e50")
    ax.set_xscale("log")
    band = r.measurements.get("band")
    if isinstance(band, list) and len(band) == 2:
        ax.axvspan(band[0], band[1], color="#27ae60", alpha=0.2, label="good band")
    user = r.measurements.get("user_lr")
    if isinstance(user, (int, float)) and user > 0:
        ax.axvline(user, color="#c0392b", linestyle="--", label=f"your lr {user:g}")
    ax.set_xlabel("learning rate")
    ax.set_ylabel("loss (smoothed)")
    ax.set_title("Learning-rate range test", fontsize=9)
    ax.legend(fontsize=8)
    return True


def _overfit(r: ProbeResult, ax: Any) -> bool:
    curve = r.measurements.get("curve")
    if not isinstance(curve, list) or len(curve) < 2:
        return False
    ax.plot([c[0] for c in curve], [c[1] for c in curve], marker=".", color="#8e44ad")
    ax.set_yscale("log")
    ax.set_xlabel("step")
    ax.set_ylabel("loss on the batch")
    ax.set_title(f"Overfit one batch: {r.summary}", fontsize=9)
    return True


# Figure kinds a probe may declare with `@probe(plot=...)`; keyed by kind, never by probe name.
DRAWERS: dict[str, tuple[str, Callable[[ProbeResult, Any], bool]]] = {
    "dependency_map": ("dependency-map.png", _dependency),
    "gradient_flow": ("gradient-flow.png", _grad_flow),
    "lr_curve": ("lr-range.png", _lr_curve),
    "loss_curve": ("overfit-curve.png", _overfit),
}


def save(report: Report, folder: str | Path) -> dict[str, Path]:
    """Write one PNG per probe that has something to draw; returns {title: path}."""
    import matplotlib.pyplot as plt

    out: dict[str, Path] = {}
    folder = Path(folder)
    for r in report.probes:
        if r.plot not in DRAWERS:
            continue
        filename, draw = DRAWERS[r.plot]
        fig, ax = _figure()
        try:
            if draw(r, ax):
                folder.mkdir(parents=True, exist_ok=True)
                fig.tight_layout()
                fig.savefig(folder / filename)
                out[filename.removesuffix(".png").replace("-", " ")] = folder / filename
        finally:
            plt.close(fig)
    return out
