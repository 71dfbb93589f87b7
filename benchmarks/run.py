"""debug-agent's performance benchmark: one command, one table.

    python benchmarks/run.py            # the full benchmark (a few minutes on 2 cores)
    python benchmarks/run.py --smoke    # seconds; CI runs this so the benchmark cannot rot

Sections: start-up (no torch for --help or a target-less ask); time to diagnosis with a target on
the reference models and a ~14M-parameter GPT (median wall time, the child's peak RSS, the cost of
the probe plan in forward+backward units, one plain training step for scale); the dependency
probe's backward passes against one backward per output row as the batch grows; the gradient check
against per-element finite differences. Figures are printed, never asserted on time; only the
structural goals (pass counts, coverage) make the exit code non-zero.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import runpy
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).parent))
from naive import naive_dependency, naive_gradcheck  # noqa: E402

import debug_agent.probes as P  # noqa: E402
from debug_agent.intake import bundled  # noqa: E402
from debug_agent.isolation import probe_registry  # noqa: E402
from debug_agent.schemas import Target  # noqa: E402

HERE = Path(__file__).parent
REFERENCE = {
    "MLP (regression)": "regression_healthy",
    "CNN (BN + dropout)": "cnn_healthy",
    "LSTM": "lstm_healthy",
    "small transformer": "transformer_healthy",
}
GPT = HERE / "targets" / "gpt.py"
SYMPTOM = "Validation loss is worse than expected; please check the model and the training step."
failures: list[str] = []


def cli(*args: str, timeout: float = 900) -> tuple[float, subprocess.CompletedProcess[str]]:
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "debug_agent", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
    return time.perf_counter() - start, proc


def row(*cells: Any) -> None:
    print(
        "  "
        + "".join(
            f"{str(c):>{w}}" if i else f"{str(c):<{w}}"
            for i, (c, w) in enumerate(zip(cells, (30, 13, 13, 14, 14, 14), strict=False))
        )
    )


def startup(runs: int) -> dict[str, Any]:
    print("\nStart-up")
    helps = [cli("--help")[0] for _ in range(runs)]
    asks = [cli("ask", SYMPTOM, "--offline", "--format", "json", "--quiet")[0] for _ in range(max(1, runs // 2))]
    probe = (
        "import sys\nfrom debug_agent.cli import main\ntry:\n    main({args!r})\nexcept SystemExit:\n    pass\n"
        "print('torch' in sys.modules, file=sys.stderr)"
    )
    imports = {}
    for name, args in (("--help", ["--help"]), ("ask, no target", ["ask", SYMPTOM, "--offline", "--format", "json"])):
        out = subprocess.run([sys.executable, "-c", probe.format(args=args)], capture_output=True, text=True)
        imports[name] = out.stderr.strip().splitlines()[-1] == "True"
    row("command", "median s", "torch?")
    row("debug-agent --help", f"{statistics.median(helps):.3f}", "yes" if imports["--help"] else "no")
    row("debug-agent ask (no target)", f"{statistics.median(asks):.3f}", "yes" if imports["ask, no target"] else "no")
    if any(imports.values()):
        failures.append("torch is imported without a target")
    return {"help_s": statistics.median(helps), "ask_no_target_s": statistics.median(asks), "torch_imported": imports}


def train_step_seconds(path: str, runs: int = 5) -> float:
    t = runpy.run_path(path)["make_target"]()
    model, (inputs, targets), loss_fn = t["model"], t["batch"], t["loss_fn"]
    inputs = inputs if isinstance(inputs, tuple) else (inputs,)
    opt = (t.get("optimizer") or (lambda p: torch.optim.Adam(p, lr=1e-3)))(model.parameters())
    times = []
    for _ in range(runs + 1):
        start = time.perf_counter()
        opt.zero_grad()
        loss_fn(model(*inputs), targets).backward()
        opt.step()
        times.append(time.perf_counter() - start)
    return statistics.median(times[1:])


def ask_section(models: dict[str, str], runs: int, large: bool) -> list[dict[str, Any]]:
    print("\nTime to diagnosis: debug-agent ask --offline with a target")
    row("model", "params", "median s", "child MiB", "plan units", "train step s")
    out = []
    targets = {name: str(bundled.get(ex).target) for name, ex in models.items()}
    if large:
        targets["GPT ~14M (B=8, T=128)"] = str(GPT)
    for name, path in targets.items():
        n = 1 if "GPT" in name else runs
        walls, reports = [], []
        for _ in range(n):
            wall, proc = cli("ask", SYMPTOM, "--target", path, "--offline", "--format", "json", "--quiet")
            if proc.returncode != 0:
                failures.append(f"ask failed on {name}: {proc.stderr[-300:]}")
                break
            walls.append(wall)
            reports.append(json.loads(proc.stdout))
        if not reports:
            continue
        rep = reports[-1]
        units = sum(float(p["measurements"].get("cost_units", 0)) for p in rep["probes"])
        step = train_step_seconds(path)
        entry = {
            "model": name,
            "params": rep["meta"]["n_params"],
            "median_s": statistics.median(walls),
            "child_peak_mib": rep["meta"].get("worker_peak_rss_mb"),
            "plan_units": round(units, 1),
            "train_step_s": step,
            "unit_s": rep["meta"].get("unit_seconds"),
            "probe_units": {
                p["name"]: p["measurements"].get("cost_units") for p in rep["probes"] if p["status"] != "not_applicable"
            },
        }
        out.append(entry)
        row(
            name,
            f"{entry['params'] / 1e6:.2f}M",
            f"{entry['median_s']:.2f}",
            entry["child_peak_mib"],
            entry["plan_units"],
            f"{step:.4f}",
        )
    big = [e for e in out if "GPT" in e["model"]]
    if big:
        print("\n  probe plan on the GPT, cost in forward+backward units:")
        for k, v in big[0]["probe_units"].items():
            print(f"    {k:20} {v}")
        if big[0]["plan_units"] > 40:
            failures.append(f"probe plan on the large model costs {big[0]['plan_units']} units (goal <= 40)")
    return out


class Wide(nn.Module):
    """An MLP with a real amount of work per row, for the scaling comparison."""

    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 10))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


def scaling(sizes: list[int]) -> list[dict[str, Any]]:
    print("\nDependency probe: backward passes as the batch grows (group testing vs one pass per row)")
    row("batch B", "ours passes", "bound", "naive passes", "ours s", "naive s")
    probe_registry()
    torch.manual_seed(0)
    model = Wide().eval()
    out = []
    for b in sizes:
        x = torch.randn(b, 64)
        start = time.perf_counter()
        r = P.execute("dependency", Target(model=model, batch=(x, torch.zeros(b))), P.ProbeContext())
        ours_s = time.perf_counter() - start
        start = time.perf_counter()
        leaking, naive_passes = naive_dependency(model, x)
        naive_s = time.perf_counter() - start
        passes = r.measurements["backward_passes"]
        bound = 2 * math.ceil(math.log2(b)) + 2
        out.append(
            {
                "batch": b,
                "passes": passes,
                "bound": bound,
                "naive_passes": naive_passes,
                "ours_s": ours_s,
                "naive_s": naive_s,
                "agree": set(r.measurements.get("leaking_input_rows", [])) == leaking,
            }
        )
        row(b, passes, bound, naive_passes, f"{ours_s:.3f}", f"{naive_s:.3f}")
        if passes > bound:
            failures.append(f"dependency used {passes} passes at B={b} (bound {bound})")
        if not out[-1]["agree"]:
            failures.append(f"dependency and the naive check disagree at B={b}")
    last = out[-1]
    print(
        f"  at B={last['batch']}: {last['naive_passes'] / last['passes']:.0f}x fewer backward passes, "
        f"{last['naive_s'] / max(last['ours_s'], 1e-9):.1f}x less time"
    )
    if last["batch"] >= 512 and last["naive_passes"] < 20 * last["passes"]:
        failures.append("fewer than 20x fewer passes than the naive way at B=512")
    return out


def gradcheck_section(example: str) -> dict[str, Any]:
    print("\nGradient check: random directions over all parameters vs per-element finite differences")
    probe_registry()
    path = str(bundled.get(example).target)
    t = Target.model_validate(runpy.run_path(path)["make_target"]())
    start = time.perf_counter()
    r = P.execute("grad_check", t, P.ProbeContext())
    ours_s = time.perf_counter() - start
    model = runpy.run_path(path)["make_target"]()["model"].double().eval()
    inputs = tuple(x.double() if x.is_floating_point() else x for x in t.inputs)
    targets = t.targets

    def loss() -> torch.Tensor:
        return t.loss_fn(model(*inputs), targets)

    start = time.perf_counter()
    worst, coverage = naive_gradcheck(model, loss, per_tensor=5)
    naive_s = time.perf_counter() - start
    row("method", "seconds", "coverage", "max rel diff")
    row(
        "directional (ours)",
        f"{ours_s:.3f}",
        f"{r.measurements['fraction_covered']:.0%}",
        r.measurements["max_rel_diff"],
    )
    row("per-element, 5 per tensor", f"{naive_s:.3f}", f"{coverage:.2%}", f"{worst:.1e}")
    if ours_s >= naive_s:
        print("  note: the directional check was not faster here")
    return {
        "example": example,
        "ours_s": ours_s,
        "naive_s": naive_s,
        "naive_coverage": coverage,
        "ours_coverage": r.measurements["fraction_covered"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a seconds-long version for CI")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"torch {torch.__version__}"
    )
    figures: dict[str, Any] = {"smoke": args.smoke}
    if args.smoke:
        figures["startup"] = startup(runs=1)
        figures["ask"] = ask_section({"MLP (regression)": "regression_healthy"}, runs=1, large=False)
        figures["scaling"] = scaling([8, 32])
        figures["gradcheck"] = gradcheck_section("regression_healthy")
    else:
        figures["startup"] = startup(runs=5)
        figures["ask"] = ask_section(REFERENCE, runs=3, large=True)
        figures["scaling"] = scaling([8, 32, 128, 512])
        figures["gradcheck"] = gradcheck_section("cnn_healthy")
        small = [e["median_s"] for e in figures["ask"] if "GPT" not in e["model"]]
        print(f"\nmedian ask on the reference models: {statistics.median(small):.2f} s (goal <= 10 s)")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1, default=str))
    print("\n" + ("goals met" if not failures else "GOALS MISSED:\n  " + "\n  ".join(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
