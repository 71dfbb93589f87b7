"""The paraphrase set's DEV / TEST split: deterministic, stratified per cause, by a stable hash of the text.

Within each cause the paraphrases are ordered by the SHA-256 of their text (whitespace-normalised) and
assigned alternately to DEV and TEST, so each cause has half (rounded) of its cases in each half and
adding or rewording one paraphrase moves at most its own cause's assignment. Symptom reading may be
read and tuned on DEV only; TEST is measured, never read. Stdlib only.

    python benchmarks/paraphrases/split.py          # counts per half
"""

from __future__ import annotations

import hashlib
import tomllib
from collections import defaultdict
from pathlib import Path

PARAPHRASES = Path(__file__).resolve().parent / "paraphrases.toml"


def _key(text: str) -> str:
    return hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()


def load(path: Path = PARAPHRASES) -> list[dict]:
    """Every paraphrase as {"index", "cause", "text", "split"}, in file order."""
    cases = tomllib.loads(path.read_text(encoding="utf-8"))["case"]
    by_cause: dict[str, list[int]] = defaultdict(list)
    for i, c in enumerate(cases):
        by_cause[c["cause"]].append(i)
    split: dict[int, str] = {}
    for idx in by_cause.values():
        for rank, i in enumerate(sorted(idx, key=lambda i: _key(cases[i]["text"]))):
            split[i] = "dev" if rank % 2 == 0 else "test"
    return [{"index": i, "cause": c["cause"], "text": c["text"], "split": split[i]} for i, c in enumerate(cases)]


def half(name: str, path: Path = PARAPHRASES) -> list[dict]:
    """The DEV or TEST half."""
    if name not in ("dev", "test"):
        raise ValueError(f"split must be 'dev' or 'test', not {name!r}")
    return [c for c in load(path) if c["split"] == name]


if __name__ == "__main__":
    rows = load()
    print(f"dev {sum(r['split'] == 'dev' for r in rows)}  test {sum(r['split'] == 'test' for r in rows)}")
