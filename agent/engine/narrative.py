"""Compose the Report from the weighed evidence and the catalog's words. Computes nothing new."""

from __future__ import annotations

from debug_agent.engine.evidence import Ledger, finding_observations
from debug_agent.engine.separate import separating_action
from debug_agent.schemas import CatalogEntry, CodeCue, Hypothesis, Observation, ProbeResult, Report

RUN_STATUSES = ("passed", "failed", "inconclusive")


def _where(entry: CatalogEntry, ledger: Ledger, cues: list[CodeCue], results: list[ProbeResult]) -> str:
    """The most specific location for this cause: where a supporting probe saw it, else a diff or source line."""
    for r in results:
        if entry.supporting(r.name) & set(r.outcomes):
            for f in r.findings:
                if f.where:
                    return f"{f.where} (`{f.code}`)" if f.code else f.where
    ranked = sorted(
        (c for c in cues if entry.code_cues.get(c.cue_id, 0) > 0),
        key=lambda c: (c.origin != "diff", -entry.code_cues[c.cue_id]),
    )
    if ranked:
        return f"{ranked[0].file}:{ranked[0].line} (`{ranked[0].code}`)"
    return "the suspect line"


def _fill(text: str, where: str) -> str:
    return text.replace("{where}", where)


def _observations(top: CatalogEntry, ledger: Ledger, results: list[ProbeResult]) -> list[Observation]:
    """Evidence for the top cause: what moved its score (strongest first), probe details, then inferences."""
    seen: set[str] = set()
    out: list[Observation] = []

    def push(o: Observation) -> None:
        if o.text not in seen:
            seen.add(o.text)
            out.append(o)

    terms = sorted(ledger.terms[top.id], key=lambda t: -abs(t.weight))
    for t in terms:
        push(t.obs)
    for r in results:
        weighs = top.probes.get(r.name, {})
        supports = any(w > 0 for tag, w in weighs.items() if tag in r.outcomes)
        if r.status == "failed" and (top.kind == "healthy" or supports):
            for o in finding_observations(r):
                push(o)
    for r in results:
        if r.status in RUN_STATUSES and r.name not in {o.source.removeprefix("probe:") for o in out}:
            push(Observation(kind="observation", source=f"probe:{r.name}", text=f"{r.name} {r.status}: {r.summary}"))
    if ledger.status(top.id) == "supported" and top.inference:
        push(Observation(kind="inference", source=f"catalog:{top.id}", text=top.inference))
    for t in ledger.contradicted_cues(top.id):
        push(
            Observation(
                kind="inference",
                source="engine",
                text=f"a probe contradicts the code cue ({t.obs.text[:120]}); the experiment outranks the cue",
            )
        )
    return out


def _first_action(top: CatalogEntry, status: str, where: str, results: list[ProbeResult], separate: str) -> str:
    """The catalog's experiment; with no probe run, first the experiment that separates the leaders."""
    text = _fill(top.first_action, where)
    if not any(r.status in RUN_STATUSES for r in results) and separate:
        return f"{separate} Meanwhile, by hand: {text}"
    if status != "untested" or not top.probes:
        return text
    probe = max(top.probes, key=lambda p: max(top.probes[p].values()))
    skipped = next((r for r in results if r.name == probe and r.status == "not_applicable"), None)
    if skipped:
        return f"{text} (The `{probe}` probe would test this, but was not run: {skipped.summary}.)"
    return text


def _lead(ledger: Ledger, cause_id: str, results: list[ProbeResult]) -> str:
    """The observation that most supports the cause: a probe's when one supports it, else the strongest.
    A clean probe result is never the lead of a defect, even where the catalog lets it nudge one up."""
    clean = {f"probe:{r.name}" for r in results if r.status == "passed"}
    positive = sorted((t for t in ledger.terms[cause_id] if t.weight > 0), key=lambda t: -t.weight)
    found = [t for t in positive if t.origin == "probe" and t.obs.source not in clean]
    best = found[0] if found else next((t for t in positive if t.origin != "probe"), None)
    return best.obs.text if best else ""


def _candidates(hyps: list[Hypothesis], healthy: str, n: int = 3) -> list[Hypothesis]:
    return [h for h in hyps if h.cause_id != healthy][:n]


def _ranking_root(top: CatalogEntry, hyps: list[Hypothesis], healthy: str) -> str:
    """The root-cause text when no probe ran: a ranking, not a finding."""
    rest = ", ".join(f"{h.title} ({h.credence:.2f})" for h in _candidates(hyps, healthy)[1:])
    what = "Probably not a bug" if top.kind == "not_bug" else "Most likely"
    return (
        f"No probe ran, so this is a ranking of candidates, not a finding. {what}: {top.title} "
        f"({hyps[0].credence:.2f}){'; then ' + rest if rest else ''}. {top.explanation}"
    )


def _competing(hyps: list[Hypothesis], ledger: Ledger, n: int = 3) -> list[str]:
    out = []
    for h in hyps[:n]:
        terms = sorted((t for t in ledger.terms[h.cause_id] if t.origin != "neutral"), key=lambda t: -abs(t.weight))
        why = f"; {'against' if terms[0].weight < 0 else 'for'}: {terms[0].obs.text[:160]}" if terms else ""
        out.append(f"{h.title} ({h.cause_id}), credence {h.credence:.2f}, {h.status}{why}")
    return out


def _root(
    ledger: Ledger, hyps: list[Hypothesis], results: list[ProbeResult], ran: int, where: str
) -> tuple[str, list[str]]:
    """The root-cause sentence and the immediate changes: a finding, a ranking, or no defect found."""
    cat = ledger.catalog
    top_h = hyps[0]
    top = cat.get(top_h.cause_id)
    if top.kind == "healthy":
        untested = [h.title for h in hyps if h.status == "untested" and h.cause_id != top.id][:5]
        root = f"No defect found. {ran} probe(s) ran and none found a defect" + (
            f"; still untested: {', '.join(untested)}." if untested else "."
        )
        return root, []
    lead = _lead(ledger, top.id, results)
    root = (
        _ranking_root(top, hyps, cat.healthy_id)
        if not ran
        else f"{'Not a bug: ' if top.kind == 'not_bug' else ''}{top.title[0].upper()}{top.title[1:]}. "
        f"{top.explanation}"
    ) + (f" Leading evidence: {lead}." if lead else "")
    return root, [_fill(top.fix, where)] if top_h.status != "contradicted" else []


def compose(
    ledger: Ledger,
    cues: list[CodeCue],
    results: list[ProbeResult],
    notes: list[str],
    meta: dict[str, object],
    partial: bool = False,
) -> Report:
    cat = ledger.catalog
    hyps = ledger.hypotheses()
    top_h = hyps[0]
    top = cat.get(top_h.cause_id)
    where = _where(top, ledger, cues, results)
    obs = _observations(top, ledger, results)
    if not obs:
        obs = [
            Observation(
                kind="inference",
                source="engine",
                text="no symptom phrase, code cue or probe outcome pointed at any catalogued cause",
            )
        ]
    ran = [r for r in results if r.status in RUN_STATUSES]
    cands = [h.cause_id for h in _candidates(hyps, cat.healthy_id)]
    separate = "" if ran else separating_action(cat, ledger.credences(), cands)
    root, changes = _root(ledger, hyps, results, len(ran), where)
    fallback = [
        f"If {top.title} is ruled out: {_fill(cat.get(h.cause_id).first_action, 'the suspect line')}"
        for h in hyps[1:3]
        if h.cause_id != cat.healthy_id
    ]
    if partial:
        notes = notes + ["the run was interrupted: only the probes listed ran"]
    return Report(
        root_cause=root,
        confidence=round(min(max(top_h.credence, 0.0), 1.0), 3),
        evidence=[o.as_evidence() for o in obs],
        competing_hypotheses=_competing(hyps[1:], ledger),
        first_action=_first_action(top, top_h.status, where, results, separate),
        prediction_if_true=_fill(top.prediction_if_true, where),
        prediction_if_false=_fill(top.prediction_if_false, where),
        immediate_changes=changes,
        fallback_logic=fallback,
        cause_id=top.id,
        verdict=top.kind,
        hypotheses=hyps[:8],
        observations=obs,
        probes=results,
        notes=notes,
        partial=partial,
        meta=meta,
    )
