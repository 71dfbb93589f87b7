"""Diagnosis quality in-sample and held-out, side by side: top-1, top-3, Brier, per-cause misses.

(a) bundled examples (in-sample: the catalog was written against them), each through the real CLI;
(b) the corpus of real bug reports in benchmarks/realworld/, each case through the real CLI
    (`debug-agent ask --symptom-file symptom.txt [--diff change.diff] [--target target.py] --format json
    --offline`), probes included when the case has a target. The batches the engine was tuned on are
    in-sample; the batches in HELD_OUT_BATCHES were written blind to the engine and only measured;
(c) the independent paraphrase sets (benchmarks/paraphrases/), symptom only, in-process (`--no-probes`):
    paraphrases.toml per half (split.py): DEV was read and tuned on (in-sample), TEST is only measured;
    holdout_b.toml, holdout_c.toml and holdout_f.toml, written blind later, were each measured once and then
    tuned on (in-sample since); holdout_d.toml, holdout_e.toml, holdout_g.toml, holdout_h.toml and
    holdout_i.toml, written blind later, are only measured (texts and misses never printed).

Brier is over the top answer: mean of (confidence - correct)^2, as in benchmarks/diagnosis.py.
Corpus cases carry a `batch` (case.toml; cases without one are the "original" 55): figures are printed for
the in-sample and held-out parts and for each batch apart; `--batch NAME` runs only that batch. The
engine's reading and weights were adjusted by hand while looking at in-sample misses (no weight is fitted),
so in-sample figures are optimistic; the held-out batch is the honest figure.

    python benchmarks/realworld_eval.py [--skip bundled corpus paraphrases] [--only CASE ...]
                                        [--batch NAME ...] [--json FILE] [--dev-only] [--dev-misses]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import tomllib
from collections import Counter
from pathlib import Path

from debug_agent.engine import reports
from debug_agent.engine.pipeline import AskOptions, ask
from debug_agent.intake import bundled
from debug_agent.schemas import Case

ROOT = Path(__file__).resolve().parent
CORPUS = ROOT / "realworld"
ORIGINAL_BATCH = "original"  # corpus cases written before batches were labelled carry no `batch` field
# Written blind to the engine and never tuned on. The batches fresh-2026-11-30 to -30f were each held out,
# measured once, and then tuned on. A held-out batch's answers are never printed and its symptoms never go
# into the known reports. A new blind batch goes here until it is read.
HELD_OUT_BATCHES: tuple[str, ...] = ("fresh-2026-12-04w",)
# Paraphrase sets: (split, label). The blind sets live in paraphrases/<split>.toml.
SETS = (
    ("dev", "DEV, in-sample: read and tuned on"),
    ("test", "TEST, held out: measured only"),
    ("holdout_b", "set B, in-sample: measured blind once, then tuned on"),
    ("holdout_c", "set C, in-sample: measured blind once, then tuned on"),
    ("holdout_d", "set D, in-sample: measured blind once, then tuned on"),
    ("holdout_e", "set E, in-sample: measured blind once, then tuned on"),
    ("holdout_f", "set F, in-sample: measured blind once, then tuned on"),
    ("holdout_g", "set G, in-sample: measured blind once, then tuned on"),
    ("holdout_h", "set H, in-sample: measured blind once, then tuned on"),
    ("holdout_i", "set I, in-sample: measured blind once, then tuned on"),
    ("holdout_j", "set J, held out: written blind"),
    ("holdout_k", "set K, held out: written blind"),
    ("holdout_l", "set L, held out: written blind"),
)
# The sets whose misses may be read and whose reports the known-reports model counts.
TUNED = ("dev", "holdout_b", "holdout_c", "holdout_d", "holdout_e", "holdout_f", "holdout_g", "holdout_h", "holdout_i")
sys.path.insert(0, str(ROOT / "paraphrases"))
import split as paraphrase_split  # noqa: E402  (benchmarks/paraphrases/split.py: the DEV / TEST halves)


def cli(args: list[str], cwd: Path | None = None, leave_out: str = "") -> dict:
    """One `debug-agent ask ... --format json --offline --quiet` run: its report, or the error.

    `leave_out`: a known-reports set the child's model is fitted without (cross-validation)."""
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "debug_agent", "ask", *args, "--format", "json", "--offline", "--quiet"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=cwd,
        env=os.environ | {reports.LEAVE_OUT_ENV: leave_out},
    )
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip() or proc.stdout.strip())[-400:], "seconds": seconds}
    report = json.loads(proc.stdout)
    return {
        "cause_id": report["cause_id"],
        "confidence": report["confidence"],
        "top3": [h["cause_id"] for h in report["hypotheses"][:3]],
        "top3_credence": [h["credence"] for h in report["hypotheses"][:3]],
        "top3_status": [h["status"] for h in report["hypotheses"][:3]],
        "probes_ran": sum(p["status"] in ("passed", "failed", "inconclusive") for p in report["probes"]),
        "probe_outcomes": {p["name"]: p["outcomes"] for p in report["probes"] if p["outcomes"]},
        "seconds": seconds,
    }


def corpus_cases(only: list[str] | None = None, batches: list[str] | None = None) -> list[dict]:
    """The corpus cases (case.toml fields plus name, folder and batch), optionally only some names or batches."""
    out = []
    for meta in sorted(CORPUS.glob("*/case.toml")):
        if only and meta.parent.name not in only:
            continue
        data = tomllib.loads(meta.read_text(encoding="utf-8"))
        batch = str(data.get("batch", ORIGINAL_BATCH))
        if batches and batch not in batches:
            continue
        out.append(data | {"name": meta.parent.name, "folder": meta.parent, "batch": batch})
    return out


def run_corpus(cases: list[dict], cross_validate: bool = False) -> list[dict]:
    """Each case through the CLI; cross-validated: its batch's symptoms left out of the known reports."""
    rows = []
    for c in cases:
        folder: Path = c["folder"]
        args = ["--symptom-file", str(folder / "symptom.txt")]
        if (folder / "change.diff").exists():
            args += ["--diff", str(folder / "change.diff")]
        if (folder / "target.py").exists():
            args += ["--target", str(folder / "target.py")]
        row = {"name": c["name"], "expect": c["cause"], "family": c.get("source_family", ""), "batch": c["batch"]}
        rows.append(row | cli(args, folder, f"corpus:{c['batch']}" if cross_validate else ""))
        if c["batch"] in HELD_OUT_BATCHES:  # a held-out case's answer is not shown: reading it would tune on it
            print(f"  {c['name'][:2]}... (held out, not shown)", flush=True)
        else:
            show(rows[-1])
    return rows


def run_bundled(only: list[str] | None = None) -> list[dict]:
    rows = []
    for ex in bundled.all_examples():
        if only and ex.name not in only:
            continue
        rows.append({"name": ex.name, "expect": ex.expect} | cli(["--example", ex.name]))
        show(rows[-1])
    return rows


def _blind_set(path: Path, split: str) -> list[dict]:
    cases = tomllib.loads(path.read_text(encoding="utf-8"))["case"]
    return [
        {"index": f"{split}-{i}", "cause": c["cause"], "text": c["text"], "split": split} for i, c in enumerate(cases)
    ]


def _blind_sets() -> list[dict]:
    blind = [split for split, _ in SETS if split.startswith("holdout")]
    return [c for split in blind for c in _blind_set(ROOT / "paraphrases" / f"{split}.toml", split)]


def run_paraphrases(halves: tuple[str, ...] = tuple(s for s, _ in SETS), cross_validate: bool = False) -> list[dict]:
    """Each paraphrase symptom-only, with its set (TUNED sets: read and tuned on; the others: measured only).

    Cross-validated: a tuned set is read with its own reports left out of the known-reports model."""
    rows = []
    for item in paraphrase_split.load() + _blind_sets():
        if item["split"] not in halves:
            continue
        with reports.leave_out({f"paraphrases:{item['split']}"} if cross_validate else set()):
            report = ask(Case(symptom=item["text"]), AskOptions(no_probes=True))
        rows.append(
            {
                "name": f"paraphrase {item['index']}",
                "split": item["split"],
                "expect": item["cause"],
                "cause_id": report.cause_id,
                "confidence": report.confidence,
                "top3": [h.cause_id for h in report.hypotheses[:3]],
            }
        )
    return rows


def show_dev_misses(rows: list[dict]) -> None:
    """Misses of the tuned-on sets with their text, to read while tuning (held-out rows are never printed)."""
    seen = [c for c in paraphrase_split.half("dev") + _blind_sets() if c["split"] in TUNED]
    texts = {f"paraphrase {c['index']}": c["text"] for c in seen}
    for r in rows:
        if r["split"] in TUNED and r["cause_id"] != r["expect"]:
            mark = "top3" if r["expect"] in r["top3"] else "MISS"
            got = f"got {r['cause_id']} {r['confidence']:.2f} top3={r['top3']}"
            print(f"\n{r['name']} {mark}: expect {r['expect']}, {got}")
            print("   " + " ".join(texts[r["name"]].split()))


def show(row: dict) -> None:
    if "error" in row:
        print(f"  {row['name']:36} {row['expect']:28} ERROR {row['error'][:80]}", flush=True)
        return
    mark = "ok" if row["cause_id"] == row["expect"] else ("top3" if row["expect"] in row["top3"] else "MISS")
    print(
        f"  {row['name']:36} {row['expect']:28} {row['cause_id']:28} {row['confidence']:5.2f} "
        f"{row.get('seconds', 0):5.1f}s {mark}",
        flush=True,
    )


def figures(rows: list[dict]) -> dict:
    done = [r for r in rows if "error" not in r]
    n = max(len(done), 1)
    top1 = sum(r["cause_id"] == r["expect"] for r in done) / n
    top3 = sum(r["expect"] in r["top3"] for r in done) / n
    brier = statistics.fmean((r["confidence"] - (r["cause_id"] == r["expect"])) ** 2 for r in done) if done else 0
    misses = Counter(r["expect"] for r in done if r["cause_id"] != r["expect"])
    return {
        "n": len(rows),
        "errors": len(rows) - len(done),
        "top1": top1,
        "top3": top3,
        "brier": brier,
        "mean_conf": statistics.fmean(r["confidence"] for r in done) if done else 0,
        "misses": dict(sorted(misses.items(), key=lambda kv: -kv[1])),
    }


def per_batch(rows: list[dict]) -> dict[str, dict]:
    """Figures for each corpus batch apart, keyed for the printed table (original batch first)."""
    names = sorted({r.get("batch", ORIGINAL_BATCH) for r in rows}, key=lambda b: (b != ORIGINAL_BATCH, b))
    return {
        f"    batch {b}" + (" (held out)" if b in HELD_OUT_BATCHES else ""): figures(
            [r for r in rows if r.get("batch", ORIGINAL_BATCH) == b]
        )
        for b in names
    }


def print_table(results: dict[str, dict]) -> None:
    print()
    print(f"{'set':34} {'n':>4} {'top-1':>7} {'top-3':>7} {'Brier':>7} {'mean conf':>10} {'errors':>7}")
    for name, f in results.items():
        print(
            f"{name:34} {f['n']:4d} {f['top1']:7.1%} {f['top3']:7.1%} {f['brier']:7.3f} {f['mean_conf']:10.3f} "
            f"{f['errors']:7d}"
        )
    for name, f in results.items():
        if f["misses"] and "held out" not in name and "TEST" not in name:
            print(f"\n{name}: top-1 misses by expected cause")
            print("  " + ", ".join(f"{k} {v}" for k, v in f["misses"].items()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip", nargs="*", default=[], choices=["bundled", "corpus", "paraphrases"])
    parser.add_argument("--only", nargs="*", help="corpus case or example names (default: all)")
    parser.add_argument("--batch", nargs="*", help="corpus batches to run, e.g. fresh-2026-11-30 (default: all)")
    parser.add_argument("--json", help="also write every row to this file")
    parser.add_argument("--dev-only", action="store_true", help="paraphrases: run the tuned-on sets only (see TUNED)")
    parser.add_argument(
        "--cross-validate", action="store_true", help="leave each tuned set's own reports out of the known reports"
    )
    parser.add_argument("--dev-misses", action="store_true", help="paraphrases: print tuned-on misses + text")
    args = parser.parse_args()
    results: dict[str, dict] = {}
    rows: dict[str, list[dict]] = {}
    if "bundled" not in args.skip:
        print("(a) bundled examples, in-sample", flush=True)
        rows["bundled"] = run_bundled(args.only)
        results["(a) bundled examples (in-sample)"] = figures(rows["bundled"])
    if "corpus" not in args.skip:
        print("(b) real-bug corpus", flush=True)
        rows["corpus"] = run_corpus(corpus_cases(args.only, args.batch), args.cross_validate)
        seen = [r for r in rows["corpus"] if r["batch"] not in HELD_OUT_BATCHES]
        unseen = [r for r in rows["corpus"] if r["batch"] in HELD_OUT_BATCHES]
        if seen:
            results["(b) corpus, in-sample (tuned on)"] = figures(seen)
        if unseen:
            results["(b) corpus, held out (blind batch)"] = figures(unseen)
        results |= per_batch(rows["corpus"])
        no_target = [r for r in seen if not (CORPUS / r["name"] / "target.py").exists()]
        if no_target:
            results["    in-sample, symptom/diff only"] = figures(no_target)
    if "paraphrases" not in args.skip:
        print("(c) paraphrases, symptom only", flush=True)
        which = TUNED if args.dev_only else tuple(s for s, _ in SETS)
        rows["paraphrases"] = run_paraphrases(which, args.cross_validate)
        if args.dev_misses:
            show_dev_misses(rows["paraphrases"])
        for half, label in SETS:
            part = [r for r in rows["paraphrases"] if r["split"] == half]
            if part:
                results[f"(c) paraphrases {label}"] = figures(part)
        first_set = [r for r in rows["paraphrases"] if r["split"] in ("dev", "test")]
        results["    paraphrases, DEV and TEST"] = figures(first_set)
    print_table(results)
    if args.json:
        Path(args.json).write_text(json.dumps({"figures": results, "rows": rows}, indent=1, default=str))
    return 0 if all(f["errors"] == 0 for f in results.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
