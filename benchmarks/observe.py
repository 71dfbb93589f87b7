"""Cost of observing a real training run: step-time overhead, memory, and a whole `ask -- python ...`.

    python benchmarks/observe.py            # about 3 minutes on 2 cores
    python benchmarks/observe.py --quick    # fewer steps and scripts

1. Passive observation overhead on the benchmark GPT (13.8M parameters, B=8, T=128): the same training
   script (benchmarks/observe_train.py) in fresh processes, plain and under the Observer, interleaved
   (plain, observed, plain, observed, ...) with the same steps; median step time of each (first step of
   each process left out) and their ratio. Goal: at most 10% more.
2. Capture memory: peak RSS of those processes, and the bytes the Observer keeps (model snapshot and
   batches).
3. A whole `debug-agent ask SYMPTOM --steps 6 -- python script.py` on each example training script:
   wall time and the peak RSS of the whole process tree. Goal: under 60 s on 2 cores.

Prints a table; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The example training scripts: the framework ones and the plain and hand-written-update loops.
SCRIPTS = [
    p
    for p in [ROOT / "tests" / "scripts" / n for n in ("plain_loop.py", "manual_loop.py")]
    + sorted((ROOT / "tests" / "scripts" / "frameworks").glob("*.py"))
    if p.is_file()
]
SYMPTOM = "the model does not learn as well as we expected"


def child(mode: str, steps: int) -> None:
    """One measured process: train `steps` steps, plain or observed; print JSON figures."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import torch
    from observe_train import train

    torch.set_num_threads(max(1, (os.cpu_count() or 2)))
    kept = 0
    if mode == "observed":
        from debug_agent.isolation.observe import Observer

        with Observer() as obs:
            times = train(steps)
        cap = obs.captured
        tensors = [p for p in cap.model.parameters()] if cap.model is not None else []
        tensors += [t for pair in cap.train_pairs for t in pair if isinstance(t, torch.Tensor)]
        kept = sum(t.numel() * t.element_size() for t in tensors)
        assert obs.steps == steps, f"observer saw {obs.steps} of {steps} steps"
    else:
        times = train(steps)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"times": times, "peak_rss": peak, "kept_bytes": kept}))


def run_child(mode: str, steps: int) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", mode, "--steps", str(steps)],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def overhead(rounds: int, steps: int) -> dict[str, float]:
    runs: dict[str, list[dict]] = {"plain": [], "observed": []}
    for _ in range(rounds):
        for mode in ("plain", "observed"):
            runs[mode].append(run_child(mode, steps))
    med = {m: statistics.median(t for r in rs for t in r["times"][1:]) for m, rs in runs.items()}
    return {
        "plain_s": med["plain"],
        "observed_s": med["observed"],
        "overhead_pct": 100 * (med["observed"] / med["plain"] - 1),
        "plain_rss": max(r["peak_rss"] for r in runs["plain"]),
        "observed_rss": max(r["peak_rss"] for r in runs["observed"]),
        "kept_bytes": max(r["kept_bytes"] for r in runs["observed"]),
    }


def whole_ask(script: Path, steps: int) -> tuple[float, int, int]:
    """Wall seconds, peak RSS (bytes, largest process of the tree) and exit code of one `ask`."""
    cmd = [sys.executable, "-m", "debug_agent", "ask", SYMPTOM, "--steps", str(steps), "--format", "json", "--quiet"]
    start = time.perf_counter()
    proc = subprocess.Popen(
        [*cmd, "--", sys.executable, str(script)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return time.perf_counter() - start, usage.ru_maxrss * 1024, proc.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer steps and only the first two scripts")
    parser.add_argument("--child", choices=("plain", "observed"), help=argparse.SUPPRESS)
    parser.add_argument("--steps", type=int, default=12, help="GPT training steps per measured process")
    parser.add_argument("--rounds", type=int, default=2, help="plain/observed process pairs")
    args = parser.parse_args()
    if args.child:
        child(args.child, args.steps)
        return
    steps = 5 if args.quick else args.steps
    o = overhead(1 if args.quick else args.rounds, steps)
    print(f"cores: {os.cpu_count()}; load average {os.getloadavg()[0]:.1f}; GPT steps per process: {steps}")
    print("| measure | figure | goal |")
    print("|---|---|---|")
    print(
        f"| passive observation on the 13.8M GPT: median step plain / observed | "
        f"{o['plain_s']:.3f} s / {o['observed_s']:.3f} s ({o['overhead_pct']:+.1f}%) | ≤ +10% |"
    )
    print(
        f"| peak RSS plain / observed; kept by the observer (snapshot + batches) | "
        f"{o['plain_rss'] / 2**30:.2f} / {o['observed_rss'] / 2**30:.2f} GB; {o['kept_bytes'] / 2**20:.0f} MB | |"
    )
    for script in SCRIPTS[:2] if args.quick else SCRIPTS:
        seconds, rss, rc = whole_ask(script, 6)
        name = script.relative_to(ROOT)
        print(f"| `ask -- python {name}` (rc {rc}); peak RSS | {seconds:.1f} s; {rss / 2**30:.2f} GB | < 60 s |")


if __name__ == "__main__":
    main()
