"""Write agent/engine/reports.toml: the labelled symptom reports the engine's known-reports term counts.

Only sets the engine is tuned on go in: the paraphrase sets in realworld_eval.TUNED (DEV half, sets B, C
and F) and the symptoms of corpus batches not in realworld_eval.HELD_OUT_BATCHES. Held-out sets (the TEST
half, sets D and later, a held-out corpus batch) never do; tests/test_reports.py checks that. Each report
keeps its set name, so a benchmark can leave a set out and measure it cross-validated.

    python benchmarks/build_reports.py
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import realworld_eval as rw

OUT = Path(__file__).resolve().parent.parent / "agent" / "engine" / "reports.toml"
HEADER = """\
# Known reports: symptom texts labelled with their root cause, counted by engine/reports.py.
# Written by benchmarks/build_reports.py from the sets the engine is tuned on (never a held-out set).
# Do not edit by hand: rerun the script.
"""


def _toml_text(text: str) -> str:
    body = " ".join(text.split()).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{body}"'


def collect() -> list[tuple[str, str, str]]:
    """(cause, set, text) of every report that may go in, in a stable order."""
    rows = []
    for split in rw.TUNED:
        if split == "dev":
            cases = rw.paraphrase_split.half("dev")
        else:
            cases = tomllib.loads((rw.ROOT / "paraphrases" / f"{split}.toml").read_text(encoding="utf-8"))["case"]
        rows += [(c["cause"], f"paraphrases:{split}", c["text"]) for c in cases]
    for folder in sorted(p for p in rw.CORPUS.iterdir() if (p / "case.toml").is_file()):
        meta = tomllib.loads((folder / "case.toml").read_text(encoding="utf-8"))
        batch = meta.get("batch", rw.ORIGINAL_BATCH)
        if batch not in rw.HELD_OUT_BATCHES:
            rows.append((meta["cause"], f"corpus:{batch}", (folder / "symptom.txt").read_text(encoding="utf-8")))
    return rows


def main() -> None:
    rows = collect()
    lines = [HEADER]
    for cause, where, text in rows:
        lines.append(f'[[report]]\ncause = "{cause}"\nset = "{where}"\ntext = {_toml_text(text)}\n')
    OUT.write_text("\n".join(lines), encoding="utf-8")
    print(f"{len(rows)} reports -> {OUT}")


if __name__ == "__main__":
    main()
