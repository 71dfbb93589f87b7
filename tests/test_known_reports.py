"""The known-reports term (engine/reports.py): what it may learn from, what it cites, and that it stays bounded."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest

from debug_agent.engine import catalog, reports
from debug_agent.engine.pipeline import AskOptions, ask, triage
from debug_agent.engine.similarity import words
from debug_agent.schemas import Case

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCH))
import build_reports  # noqa: E402
import realworld_eval as rw  # noqa: E402


def _norm(text: str) -> str:
    return " ".join(text.split())


def _held_out_texts() -> dict[str, str]:
    """Every text the engine must never learn from: the TEST half, blind paraphrase sets, held-out batches."""
    out = {_norm(c["text"]): "paraphrases:test" for c in rw.paraphrase_split.half("test")}
    for split, _ in rw.SETS:
        if split.startswith("holdout") and split not in rw.TUNED:
            for c in tomllib.loads((BENCH / "paraphrases" / f"{split}.toml").read_text(encoding="utf-8"))["case"]:
                out[_norm(c["text"])] = split
    for c in rw.corpus_cases():
        if c["batch"] in rw.HELD_OUT_BATCHES:
            out[_norm((c["folder"] / "symptom.txt").read_text(encoding="utf-8"))] = c["name"]
    return out


def test_no_held_out_text_is_a_known_report():
    held = _held_out_texts()
    leaked = [held[_norm(r.text)] for r in reports.load() if _norm(r.text) in held]
    assert not leaked, f"held-out texts in reports.toml: {leaked[:5]}"
    tuned = {f"paraphrases:{s}" for s in rw.TUNED}
    assert all(r.set in tuned or r.set.startswith("corpus:") for r in reports.load())


def test_reports_file_is_what_the_build_script_writes():
    """No hand edits: the file holds exactly the tuned-on reports, so a new blind set cannot slip in or out."""
    built = [(c, s, _norm(t)) for c, s, t in build_reports.collect()]
    assert [(r.cause, r.set, _norm(r.text)) for r in reports.load()] == built


def test_every_known_report_names_a_catalog_cause():
    ids = {e.id for e in catalog.load().entries}
    assert {r.cause for r in reports.load()} <= ids
    assert len({r.cause for r in reports.load()}) == len(ids)  # every cause has reports to learn from


def test_typical_cites_only_the_symptoms_words_and_stays_bounded():
    text = "I set requires_grad=False on the backbone but its weights still change after every epoch."
    cat = catalog.load()
    found = reports.typical(text, cat)
    said = {w for _, w in words(text)}
    assert found and all(set(t.words) <= said for t in found)
    assert all(0 < t.weight <= cat.reports_cap for t in found)
    assert reports.typical(text, cat) == found  # deterministic
    top = max(found, key=lambda t: t.weight)
    assert top.cause_id == "optim.frozen_params_train"


def test_leaving_every_set_out_leaves_no_term():
    everything = {r.set for r in reports.load()}
    with reports.leave_out(everything):
        assert reports.typical("my loss went to nan after 300 steps", catalog.load()) == []
    assert reports.typical("my loss went to nan after 300 steps", catalog.load())


def test_leave_out_by_environment(monkeypatch: pytest.MonkeyPatch):
    sets = sorted({r.set for r in reports.load()})
    monkeypatch.setenv(reports.LEAVE_OUT_ENV, ",".join(sets))
    assert reports.model().n == 0
    monkeypatch.delenv(reports.LEAVE_OUT_ENV)
    assert reports.model().n == len(reports.load())


def test_known_reports_are_word_evidence_cited_in_the_report():
    case = Case(symptom="After adding gradient accumulation over 8 micro-batches my loss is 8x larger and diverges.")
    ledger = triage(case).ledger
    terms = [t for ts in ledger.terms.values() for t in ts if t.origin == "reports"]
    assert terms and all(t.obs.source == "symptom" for t in terms)
    report = ask(case, AskOptions(no_probes=True))
    cited = [e for e in report.evidence + [r for h in report.hypotheses for r in h.reasons] if "known reports" in e]
    assert cited, "the known-reports term moved a credence, so the report must cite it"
