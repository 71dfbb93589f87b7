"""Diagnosis quality on the bundled example set: top-1/top-3 accuracy, false alarms, Brier, time.

Runs `debug-agent ask --example NAME --format json --offline` for every example (a real subprocess
each) and compares `cause_id` with the example's `expect`. Brier is over the top answer:
mean of (confidence - correct)^2.

    python benchmarks/diagnosis.py [--only NAME ...] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

from debug_agent.intake import bundled


def run(name: str) -> dict:
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "debug_agent", "ask", "--example", name, "--format", "json", "--offline", "--quiet"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        return {"name": name, "error": proc.stderr.strip()[-400:], "seconds": seconds}
    report = json.loads(proc.stdout)
    return {
        "name": name,
        "cause_id": report["cause_id"],
        "confidence": report["confidence"],
        "seconds": seconds,
        "top3": [h["cause_id"] for h in report["hypotheses"][:3]],
        "has_target": "target" in report["meta"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="example names (default: all)")
    parser.add_argument("--json", help="also write the per-example rows to this file")
    args = parser.parse_args()
    examples = [e for e in bundled.all_examples() if not args.only or e.name in args.only]
    rows = []
    print(f"{'example':24} {'expected':26} {'got':26} {'conf':>5} {'top3':>4} {'s':>5}")
    for ex in examples:
        row = run(ex.name) | {"expect": ex.expect}
        rows.append(row)
        if "error" in row:
            print(f"{ex.name:24} {ex.expect:26} ERROR {row['error'][:60]}")
            continue
        row["correct"] = row["cause_id"] == ex.expect
        mark = "ok" if row["correct"] else "MISS"
        print(
            f"{ex.name:24} {ex.expect:26} {row['cause_id']:26} {row['confidence']:5.2f} "
            f"{'y' if ex.expect in row['top3'] else 'n':>4} {row['seconds']:5.1f} {mark}"
        )
    done = [r for r in rows if "error" not in r]
    healthy = [r for r in done if r["expect"] == "none"]
    with_target = [r["seconds"] for r in done if r["has_target"]]
    top1 = sum(r["correct"] for r in done) / max(len(done), 1)
    top3 = sum(r["expect"] in r["top3"] for r in done) / max(len(done), 1)
    brier = statistics.fmean((r["confidence"] - r["correct"]) ** 2 for r in done) if done else float("nan")
    mean_conf = statistics.fmean(r["confidence"] for r in done) if done else float("nan")
    print()
    print(f"examples            {len(rows)} ({len(rows) - len(done)} errors)")
    print(f"top-1 accuracy      {top1:.1%}")
    print(f"top-3 accuracy      {top3:.1%}")
    print(f"false alarms        {sum(r['cause_id'] != 'none' for r in healthy)} of {len(healthy)} healthy targets")
    print(f"mean confidence     {mean_conf:.3f}  (vs accuracy {top1:.3f})")
    print(f"Brier score         {brier:.4f}")
    print(
        f"median ask seconds  {statistics.median(with_target):.2f} (with a target; {len(with_target)} runs)"
        if with_target
        else "median ask seconds  n/a"
    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=1)
    return 0 if len(done) == len(rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
