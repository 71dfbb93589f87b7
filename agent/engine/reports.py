"""Known reports: how often a symptom's words occur in labelled reports of each cause (naive Bayes, pure Python).

`reports.toml` (beside this file) holds symptom reports whose root cause is known: the paraphrase sets and
the corpus symptoms the engine was tuned on (written by `benchmarks/build_reports.py`, which refuses every
held-out set). Each report is cut into the same terms as the lexical similarity (similarity.words); a
Bernoulli naive Bayes model counts in how many reports of each cause a term occurs. For a new symptom,
each cause's score is the sum over the symptom's known terms of log(P(term | cause) / P(term)); a cause
whose score lies above the catalog's mean earns `reports_weight` log-odds per standard deviation, at most
`reports_cap`. The term cites the symptom words that weigh most for that cause: word evidence only, never
a probe's, and nothing the symptom does not say.

Leave-out (cross-validation): the benchmarks measure a tuned set with its own reports left out of the
model, through `leave_out()` in-process, or the environment variable DEBUG_AGENT_REPORTS_LEAVE_OUT
(comma-separated set names) for a child process.

May import: schemas and the engine's `similarity` (its word cutter). Stdlib otherwise.
"""

from __future__ import annotations

import math
import os
import statistics
import tomllib
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from debug_agent.engine.similarity import words
from debug_agent.schemas import Catalog

REPORTS = Path(__file__).resolve().parent / "reports.toml"
LEAVE_OUT_ENV = "DEBUG_AGENT_REPORTS_LEAVE_OUT"


@dataclass(frozen=True)
class Report:
    cause: str
    set: str  # where it came from, e.g. "paraphrases:dev" or "corpus:fresh-2026-11-30"
    text: str


@dataclass(frozen=True)
class Model:
    """Per cause: how many reports, and in how many of them each term occurs."""

    reports: Counter[str]
    counts: dict[str, Counter[str]]
    total: Counter[str]  # in how many reports (all causes) each term occurs

    @property
    def n(self) -> int:
        return sum(self.reports.values())


@dataclass(frozen=True)
class Typical:
    """One cause's known-reports term: its log-odds and the symptom words that earned it, strongest first."""

    cause_id: str
    weight: float
    words: tuple[str, ...]
    reports: int  # how many known reports of this cause the model holds


def load(path: Path = REPORTS) -> list[Report]:
    data = tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    return [Report(r["cause"], r["set"], r["text"]) for r in data.get("report", [])]


def fit(reports: list[Report]) -> Model:
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    total: Counter[str] = Counter()
    per_cause: Counter[str] = Counter()
    for r in reports:
        terms = {t for t, _ in words(r.text)}
        per_cause[r.cause] += 1
        counts[r.cause].update(terms)
        total.update(terms)
    return Model(per_cause, dict(counts), total)


_LEFT_OUT: list[frozenset[str]] = []
_CACHE: dict[frozenset[str], Model] = {}


@contextmanager
def leave_out(sets: set[str]) -> Iterator[None]:
    """Within the block, the model is fitted without the reports of these sets (cross-validation)."""
    _LEFT_OUT.append(frozenset(sets))
    try:
        yield
    finally:
        _LEFT_OUT.pop()


def _excluded() -> frozenset[str]:
    if _LEFT_OUT:
        return _LEFT_OUT[-1]
    return frozenset(s.strip() for s in os.environ.get(LEAVE_OUT_ENV, "").split(",") if s.strip())


def model() -> Model:
    """The model of every known report, less the left-out sets; fitted once per leave-out."""
    skip = _excluded()
    if skip not in _CACHE:
        _CACHE[skip] = fit([r for r in load() if r.set not in skip])
    return _CACHE[skip]


def _scores(m: Model, terms: dict[str, str], causes: list[str], alpha: float) -> dict[str, list[tuple[float, str]]]:
    """Per cause, each known term's log(P(term | cause) / P(term)), Laplace-smoothed by alpha."""
    out: dict[str, list[tuple[float, str]]] = {}
    for c in causes:
        seen, n = m.counts.get(c, Counter()), m.reports.get(c, 0)
        out[c] = [
            (math.log((seen[t] + alpha) / (n + 2 * alpha)) - math.log((m.total[t] + alpha) / (m.n + 2 * alpha)), t)
            for t in terms
        ]
    return out


def typical(text: str, catalog: Catalog) -> list[Typical]:
    """Causes whose known reports use the symptom's words more than the catalog's mean, with bounded log-odds."""
    weight, cap, alpha = catalog.reports_weight, catalog.reports_cap, catalog.reports_alpha
    if not weight or not cap:
        return []
    m = model()
    terms: dict[str, str] = {}
    for term, word in words(text):
        if m.total[term]:
            terms.setdefault(term, word)
    causes = [e.id for e in catalog.entries if m.reports.get(e.id)]
    if not terms or len(causes) < 2:
        return []
    parts = _scores(m, terms, causes, alpha)
    sums = {c: sum(p for p, _ in parts[c]) for c in causes}
    mean, spread = statistics.fmean(sums.values()), statistics.pstdev(sums.values())
    if spread <= 0:
        return []
    out = []
    for c in causes:
        w = min(cap, weight * (sums[c] - mean) / spread)
        if w > 0:
            best = sorted((p, t) for p, t in parts[c] if p > 0)[::-1][:4]
            out.append(Typical(c, round(w, 3), tuple(terms[t] for _, t in best), m.reports[c]))
    return out


def describe(t: Typical) -> str:
    """The observation text: which of the symptom's words are typical of this cause's known reports."""
    shown = ", ".join(f'"{w}"' for w in t.words)
    return f"the symptom's words are typical of the {t.reports} known reports of this cause: {shown}"
