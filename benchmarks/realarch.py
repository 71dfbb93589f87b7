"""Real-architecture benchmark: every case in tests/realworld/cases.py through the real CLI
(`debug-agent ask SYMPTOM --target FILE --format json --offline --all-probes`), one subprocess each.

Prints a table (model, healthy/buggy, expected vs got, confidence, seconds, probes in error) and the
totals: false alarms on healthy models, injected bugs right at top-1, median ask time.
Needs the `realworld` extra for the Hugging Face cases (skipped without it). `--json FILE` saves rows.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.realworld.cases import CASES, Case  # noqa: E402


def ask(case: Case) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "DEBUG_AGENT_"))}
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", NO_COLOR="1")
    cmd = [
        sys.executable,
        "-m",
        "debug_agent",
        "ask",
        case.symptom,
        "--target",
        case.target_arg(),
        "--format",
        "json",
        "--offline",
        "--all-probes",
        "--quiet",
    ]
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1200, stdin=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        return {
            "case": case.name,
            "expected": case.expected,
            "got": f"exit {proc.returncode}",
            "confidence": None,
            "seconds": round(seconds, 1),
            "errors": [proc.stderr.strip().splitlines()[-1:]],
            "failed": [],
        }
    rep = json.loads(proc.stdout)
    return {
        "case": case.name,
        "expected": case.expected,
        "got": rep["cause_id"],
        "confidence": rep["confidence"],
        "seconds": round(seconds, 1),
        "errors": [p["name"] for p in rep["probes"] if p["status"] == "error"],
        "failed": [p["name"] for p in rep["probes"] if p["status"] == "failed"],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="also write the rows to this file")
    ap.add_argument("--only", help="run only cases whose name contains this text")
    args = ap.parse_args()
    rows = []
    for case in CASES:
        if args.only and args.only not in case.name:
            continue
        if case.needs and importlib.util.find_spec(case.needs) is None:
            sys.stderr.write(f"skip {case.name}: needs {case.needs}\n")
            continue
        rows.append(ask(case) | {"healthy": case.healthy})
        r = rows[-1]
        sys.stderr.write(f"{r['case']}: {r['got']} ({r['seconds']}s)\n")
    print(f"real-architecture benchmark, {datetime.date.today().isoformat()}, --all-probes, offline")
    print(f"{'model':<48} {'kind':<8} {'expected':<24} {'got':<24} {'conf':>5} {'sec':>6}  failed / error probes")
    for r in rows:
        ok = "ok" if r["got"] == r["expected"] else "WRONG"
        conf = f"{r['confidence']:.2f}" if r["confidence"] is not None else "-"
        probes = ",".join(r["failed"]) + (" / " + ",".join(map(str, r["errors"])) if r["errors"] else "")
        print(
            f"{r['case'][:48]:<48} {'healthy' if r['healthy'] else 'buggy':<8} {r['expected']:<24} "
            f"{r['got'][:24]:<24} {conf:>5} {r['seconds']:>6}  {ok} {probes}"
        )
    healthy = [r for r in rows if r["healthy"]]
    buggy = [r for r in rows if not r["healthy"]]
    alarms = sum(r["got"] != "none" for r in healthy)
    right = sum(r["got"] == r["expected"] for r in buggy)
    print(f"false alarms on healthy models (--all-probes): {alarms}/{len(healthy)}")
    print(f"injected bugs right at top-1: {right}/{len(buggy)}")
    print(f"probe errors on healthy models: {sum(len(r['errors']) for r in healthy)}")
    if rows:
        print(f"median ask time: {statistics.median(r['seconds'] for r in rows):.1f} s")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
