"""Evidence and its weight: symptom phrases, code cues and probe outcomes scored against the catalog.

Every term of a cause's score carries the Observation it came from, so the report can cite exactly
what moved each credence. Scores are log-odds; credences are a softmax over every catalog entry plus
"other" (a cause outside the catalog), so they sum to at most 1.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Literal

from debug_agent.engine import reports
from debug_agent.engine._fact_words import NEGATION
from debug_agent.engine.facts import Fact
from debug_agent.engine.similarity import Match, describe
from debug_agent.schemas import Catalog, CatalogEntry, CodeCue, Hypothesis, Observation, ProbeResult, SymptomMatch

SYMPTOM_CAP = 3.0  # a long symptom cannot outvote an experiment
WORDS_CAP = 4.5  # phrases and facts together saturate (softly, keeping their order) below a decisive experiment
CODE_CAP = 4.5
LLM_CAP = 2.0  # an LLM's reading of the words counts, but less than one experiment
OTHER = "other"
DIFF_DEFECT_CUE = 2.0  # a diff cue this strong for some defect ...
DIFF_DEFECT_PENALTY = -1.5  # ... weighs this much against each not-a-bug explanation
# Word origins whose support spares a cause the silence penalty (see Ledger._silence).
SILENCE_WORDS: tuple[str, ...] = ("symptom", "fact", "code", "answer", "llm")

# "neutral": a clean probe result credited to a cause that probe does not test (see add_probes)
# "similar": the symptom's words resemble an entry's own text (similarity.py); word evidence, never a probe's
# "reports": the symptom's words are typical of known reports of a cause (reports.py); word evidence too
Origin = Literal["symptom", "fact", "similar", "reports", "code", "probe", "neutral", "answer", "llm"]


@dataclass
class Term:
    origin: Origin
    weight: float
    obs: Observation


@dataclass
class Ledger:
    """Per-cause score terms. Build with `add_*`, read with `credences()` and `hypotheses()`."""

    catalog: Catalog
    terms: dict[str, list[Term]] = field(default_factory=dict)
    # "No defect found" is an answer only after probes ran and passed; until then it ranks below the leader.
    healthy_allowed: bool = True
    facts_seen: set[str] = field(default_factory=set)  # ids of the facts read from the symptom

    def __post_init__(self) -> None:
        for e in self.catalog.entries:
            self.terms.setdefault(e.id, [])

    def add(self, cause_id: str, origin: Origin, weight: float, obs: Observation) -> None:
        if weight:
            self.terms[cause_id].append(Term(origin, weight, obs))

    def total(self, cause_id: str, origin: Origin | None = None, skip: tuple[Origin, ...] = ()) -> float:
        """The cause's log-odds from one origin, or from all of them (less `skip`) with the word caps applied."""
        ts = [t for t in self.terms[cause_id] if origin is None or t.origin == origin]
        caps = {"symptom": SYMPTOM_CAP, "code": CODE_CAP, "llm": LLM_CAP}
        if origin in caps:
            return max(-caps[origin], min(caps[origin], sum(t.weight for t in ts)))
        if origin is None:
            words = sum(self.total(cause_id, o) for o in ("symptom", "fact", "similar"))
            words = WORDS_CAP * math.tanh(words / WORDS_CAP)
            rest: tuple[Origin, ...] = ("reports", "code", "probe", "neutral", "answer", "llm")
            return words + sum(self.total(cause_id, o) for o in rest if o not in skip)
        return sum(t.weight for t in ts)

    def score(self, entry: CatalogEntry, skip: tuple[Origin, ...] = ()) -> float:
        return math.log(entry.prior) + self.total(entry.id, skip=skip) - self._silence(entry.id)

    def _silence(self, cause_id: str) -> float:
        """Words-only runs: a cause the symptom's words say nothing for, while they support another cause.

        Absence of evidence counts only where evidence was looked for: the words were read and pointed
        elsewhere. Once a probe ran, experiments (not silence) decide, so nothing is taken.
        """
        penalty = self.catalog.silent_penalty
        if not penalty or any(t.origin in ("probe", "neutral") for ts in self.terms.values() for t in ts):
            return 0.0
        words = SILENCE_WORDS
        if any(t.weight > 0 for t in self.terms[cause_id] if t.origin in words):
            return 0.0
        supported = any(t.weight > 0 for ts in self.terms.values() for t in ts if t.origin in words)
        return penalty if supported else 0.0

    def credences(self, skip: tuple[Origin, ...] = ()) -> dict[str, float]:
        """A softmax over every entry's score (less the `skip` origins) and "other", with the credence caps."""
        t = self.catalog.temperature
        raw = {e.id: self.score(e, skip) / t for e in self.catalog.entries}
        raw[OTHER] = self.catalog.other_score / t
        top = max(raw.values())
        exp = {k: math.exp(v - top) for k, v in raw.items()}
        z = sum(exp.values())
        cred = {k: v / z for k, v in exp.items()}
        best = max(cred, key=lambda k: cred[k])
        cap = self.catalog.none_max_credence if best == self.catalog.healthy_id else self.catalog.max_credence
        if best not in (OTHER, self.catalog.healthy_id) and not any(
            t.origin == "probe" and t.weight > 0 and t.weight >= self.catalog.confirm_min_weight
            for t in self.terms[best]
        ):
            cap = min(cap, self.catalog.unconfirmed_max_credence)
        if best != OTHER and cred[best] > cap:
            cred[OTHER] += cred[best] - cap
            cred[best] = cap
        return cred

    def status(self, cause_id: str) -> Literal["supported", "contradicted", "untested"]:
        probe = [t for t in self.terms[cause_id] if t.origin == "probe"]
        if not probe:
            return "untested"
        return "supported" if sum(t.weight for t in probe) > 0 else "contradicted"

    def hypotheses(self) -> list[Hypothesis]:
        cred = self.credences()
        out = []
        for e in self.catalog.entries:
            reasons = [
                f"{t.weight:+.1f} {t.obs.text[:140]}"
                for t in sorted(self.terms[e.id], key=lambda t: -abs(t.weight))
                if t.origin != "neutral"
            ][:4]
            out.append(
                Hypothesis(
                    cause_id=e.id,
                    title=e.title,
                    credence=round(cred[e.id], 4),
                    status=self.status(e.id),
                    reasons=reasons,
                )
            )
        # Ranked by the unrounded credence, then the score: behind a confident top cause the others round
        # to 0.0 but still differ in evidence, and their order is the answer's second and third guesses.
        order = {e.id: (cred[e.id], self.score(e)) for e in self.catalog.entries}
        out.sort(key=lambda h: order[h.cause_id], reverse=True)
        if not self.healthy_allowed and len(out) > 1 and out[0].cause_id == self.catalog.healthy_id:
            out[0], out[1] = out[1], out[0]
        total = sum(h.credence for h in out)
        if total > 1.0:  # rounding can push the sum a hair over 1
            out[0] = out[0].model_copy(update={"credence": round(out[0].credence - (total - 1.0), 4)})
        return out

    def contradicted_cues(self, cause_id: str) -> list[Term]:
        """Code-cue terms for a cause that probe outcomes argue against (the probe wins)."""
        if self.total(cause_id, "probe") >= 0:
            return []
        return [t for t in self.terms[cause_id] if t.origin == "code" and t.weight > 0]


_BOUNDARY = re.compile(r"[.!?](?=\s)|\n\s*\n")


def _sentence(text: str, start: int, end: int) -> str:
    """The sentence around a match (hard-wrapped lines joined), or a window of it when it is long."""
    left = max((m.end() for m in _BOUNDARY.finditer(text, 0, start)), default=0)
    m = _BOUNDARY.search(text, end)
    right = m.start() + 1 if m else len(text)
    phrase = " ".join(text[left:right].split())
    if len(phrase) > 160:
        lo, hi = max(start - 60, left), min(end + 60, right)
        phrase = "..." + " ".join(text[lo:hi].split()) + "..."
    return phrase


_NEGATED = re.compile(NEGATION, re.IGNORECASE)
_SAYS_NOT = re.compile(r"n'\??t|\bnot\b|\bnever\b|\bno\b|\bwithout\b")  # matched against the pattern's source


def _negated(m: re.Match[str], pattern: str) -> bool:
    """The match's last part is denied by the words before it ("no sign of divergence"); a pattern that
    spells a negation itself ("weights don't change") is taken as written."""
    if _SAYS_NOT.search(pattern):
        return False
    start = m.start(m.lastindex) if m.lastindex else m.start()
    return bool(_NEGATED.search(m.string[max(0, start - 30) : start]))


def match_symptoms(text: str, catalog: Catalog) -> list[SymptomMatch]:
    out = []
    for e in catalog.entries:
        for cue in e.symptoms:
            m = next((m for m in re.finditer(cue.pattern, text, re.IGNORECASE) if not _negated(m, cue.pattern)), None)
            if m:
                out.append(SymptomMatch(cause_id=e.id, phrase=_sentence(text, m.start(), m.end()), weight=cue.weight))
    return out


def add_facts(ledger: Ledger, facts: list[Fact]) -> None:
    """Facts read from the symptom, weighed by each entry's `facts` table."""
    ledger.facts_seen |= {f.id for f in facts}
    for f in facts:
        text = f'the symptom reports {f.detail}: "{_clip(f.phrase)}"'
        obs = Observation(kind="observation", source="symptom", text=text)
        for e in ledger.catalog.entries:
            w = e.facts.get(f.id)
            if w:
                ledger.add(e.id, "fact", w, obs)


def add_similar(ledger: Ledger, matches: list[Match]) -> None:
    """The lexical similarity of the symptom to each entry's text: bounded word evidence, cited word by word."""
    for m in matches:
        ledger.add(m.cause_id, "similar", m.weight, Observation(kind="observation", source="symptom", text=describe(m)))


def add_reports(ledger: Ledger, typical: list[reports.Typical]) -> None:
    """How typical the symptom's words are of each cause's known reports: bounded word evidence, cited word by word."""
    for t in typical:
        obs = Observation(kind="observation", source="symptom", text=reports.describe(t))
        ledger.add(t.cause_id, "reports", t.weight, obs)


def _clip(phrase: str, n: int = 160) -> str:
    return phrase if len(phrase) <= n else phrase[: n - 3] + "..."


def add_symptoms(ledger: Ledger, matches: list[SymptomMatch]) -> None:
    for m in matches:
        ledger.add(
            m.cause_id,
            "symptom",
            m.weight,
            Observation(kind="observation", source="symptom", text=f'the symptom says "{m.phrase}"'),
        )


def cue_observation(c: CodeCue) -> Observation:
    where = "the diff at" if c.origin == "diff" else "the source at"
    code = "" if c.code in c.detail else f" `{c.code}`"
    return Observation(kind="observation", source=c.source, text=f"{where} {c.file}:{c.line}{code}: {c.detail}")


def add_cues(ledger: Ledger, cues: list[CodeCue]) -> None:
    for e in ledger.catalog.entries:
        best: dict[str, tuple[float, CodeCue]] = {}
        for c in cues:
            w = e.code_cues.get(c.cue_id)
            if w is not None and (c.cue_id not in best or c.origin == "diff" and best[c.cue_id][1].origin != "diff"):
                best[c.cue_id] = (w, c)
        for w, c in best.values():
            ledger.add(e.id, "code", w, cue_observation(c))
    # The change the user made before the symptom holds a known defect's pattern: "nothing is broken" loses
    # ground (only the change's own lines count; a pattern in the surrounding source says less).
    entries = ledger.catalog.entries
    suspect = next(
        (c for c in cues if c.origin == "diff" and any(
            e.kind == "defect" and e.code_cues.get(c.cue_id, 0.0) >= DIFF_DEFECT_CUE for e in entries)),
        None,
    )
    if suspect is not None:
        for e in entries:
            if e.kind == "not_bug":
                ledger.add(e.id, "code", DIFF_DEFECT_PENALTY, cue_observation(suspect))


def probe_observation(r: ProbeResult) -> Observation:
    return Observation(kind="observation", source=f"probe:{r.name}", text=f"{r.name} {r.status}: {r.summary}")


def finding_observations(r: ProbeResult, limit: int = 3) -> list[Observation]:
    out = []
    for f in r.findings[:limit]:
        text = f.text + (
            f" (at {f.where}: `{f.code}`)" if f.where and f.code else f" (at {f.where})" if f.where else ""
        )
        # A finding located in the user's training script (an observed run) cites that line itself.
        where = f.where or ""
        source = where if where.startswith("script:") and where.rsplit(":", 1)[-1].isdigit() else f"probe:{r.name}"
        out.append(Observation(kind="observation", source=source, text=text))
    return out


def add_probes(ledger: Ledger, results: list[ProbeResult]) -> None:
    """Probe outcomes; the healthy answer becomes possible only when at least one probe ran and passed.

    A clean result of a probe that does not test a cause is as likely under that cause as under "no
    defect": such a cause is credited with the healthy entry's weight for the clean outcome (origin
    "neutral", which neither supports nor contradicts it), so passes of unrelated probes do not add up
    to "no defect found" against a cause no probe could see. A not-a-bug explanation (overfitting, too
    few steps) predicts every clean outcome as "no defect" does: an outcome its own table does not weigh
    gets the healthy entry's positive weight.
    """
    ledger.healthy_allowed = any(r.status == "passed" for r in results)
    healthy = ledger.catalog.get(ledger.catalog.healthy_id)
    for r in results:
        if not r.outcomes:
            continue
        obs = probe_observation(r)
        clean = sum(w for tag, w in healthy.probes.get(r.name, {}).items() if tag in r.outcomes and w > 0)
        short = _short_horizon(ledger, r)
        for e in ledger.catalog.entries:
            table = e.probes.get(r.name)
            if table is None and e.kind != "healthy":
                ledger.add(e.id, "neutral", clean * short.get("", 1.0), obs)
                continue
            fallback = healthy.probes.get(r.name, {}) if e.kind == "not_bug" else {}
            w = sum(
                (table or {}).get(tag, max(fallback.get(tag, 0.0), 0.0)) * short.get(tag, 1.0) for tag in r.outcomes
            )
            ledger.add(e.id, "probe", w, obs)


def _short_horizon(ledger: Ledger, r: ProbeResult) -> dict[str, float]:
    """Discounts for clean outcomes that watched too few steps to see a failure the symptom places late.

    {outcome: factor}, with "" for the neutral credit of a clean result; {} when nothing is discounted.
    """
    late = ledger.catalog.late_failure
    if late is None or not (ledger.facts_seen & set(late.facts)):
        return {}
    tags = [t for t in late.clean.get(r.name, []) if t in r.outcomes]
    return {t: late.discount for t in tags} | ({"": late.discount} if tags else {})


def add_answers(ledger: Ledger, answers: dict[str, bool]) -> None:
    """The user's yes/no answers to catalog questions (from chat)."""
    questions = {q.id: q for q in ledger.catalog.questions}
    for qid, yes in answers.items():
        q = questions.get(qid)
        if q is None:
            continue
        obs = Observation(
            kind="observation", source="symptom", text=f'asked "{q.text}", the user answered {"yes" if yes else "no"}'
        )
        for cause, w in (q.yes if yes else q.no).items():
            ledger.add(cause, "answer", w, obs)
