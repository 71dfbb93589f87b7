"""The engine: triage -> plan -> run -> weigh -> Report. Returns a Report and never prints.

Progress is reported through an optional callback object so the CLI (or a notebook) decides how to
show it.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Protocol

from . import __version__, catalog, planner
from .cues import scan_diff, scan_files
from .errors import UsageError
from .evidence import Ledger, add_cues, add_probes, add_symptoms, match_symptoms
from .narrative import compose
from .runner import Limits, Ready, Runner, run_probes
from .schemas import Case, CodeCue, ProbeRequest, ProbeResult, Report


class Progress(Protocol):
    def phase(self, text: str) -> None: ...
    def probe_started(self, req: ProbeRequest) -> None: ...
    def probe_done(self, result: ProbeResult) -> None: ...


class _Silent:
    def phase(self, text: str) -> None:
        pass

    def probe_started(self, req: ProbeRequest) -> None:
        pass

    def probe_done(self, result: ProbeResult) -> None:
        pass


@dataclass
class AskOptions:
    probes: list[ProbeRequest] = field(default_factory=list)  # run exactly these (user's choice)
    all_probes: bool = False
    no_probes: bool = False
    budget_s: float = 30.0  # planned probe time
    max_units: float = 2000.0  # cap on planned forward+backward units, whatever the time budget
    limits: Limits = field(default_factory=Limits)
    seed: int = 0
    device: str = "cpu"
    cwd: str | None = None


@dataclass
class Triage:
    """What the engine knows before any probe runs."""

    ledger: Ledger
    cues: list[CodeCue]


def triage(case: Case, source_cues: list[CodeCue] | None = None) -> Triage:
    cat = catalog.load()
    cues = (scan_diff(case.diff) if case.diff else []) + (source_cues or [])
    ledger = Ledger(cat)
    add_symptoms(ledger, match_symptoms(case.symptom, cat))
    add_cues(ledger, cues)
    return Triage(ledger, cues)


def choose(tri: Triage, ready: Ready, opts: AskOptions) -> tuple[list[ProbeRequest], list[ProbeResult], list[str]]:
    """The probe plan, not-applicable results to show, and notes."""
    known = {p.name: p for p in ready.probes}
    if opts.probes:
        reqs = []
        for r in opts.probes:
            if r.name not in known:
                raise UsageError(f"unknown probe {r.name!r}", fix=f"known probes: {', '.join(sorted(known))}")
            reqs.append(r)
        return reqs, [], []
    units = opts.max_units
    if ready.unit_seconds:
        units = min(units, opts.budget_s / max(ready.unit_seconds, 1e-6))
    if opts.all_probes:
        units = math.inf
    cred = tri.ledger.credences()
    if opts.all_probes:
        cred = {k: 1.0 / len(cred) for k in cred}  # every cause equally likely: every informative probe runs
    reqs, skipped = planner.plan(tri.ledger.catalog, cred, ready.probes, ready.info, units)
    shown = [ProbeResult(name=s.name, status="not_applicable", summary=s.why) for s in skipped]
    return reqs, shown, [f"probe {s.name} not run: {s.why}" for s in skipped]


def ask(case: Case, opts: AskOptions | None = None, progress: Progress | None = None) -> Report:
    """Diagnose a case. Raises typed errors for bad input; probe failures become results."""
    opts = opts or AskOptions()
    progress = progress or _Silent()
    started = time.monotonic()
    notes = list(case.notes) + (case.diff.notes if case.diff else [])
    progress.phase("triage: symptom and diff")
    tri = triage(case)
    results: list[ProbeResult] = []
    partial = False
    meta: dict[str, object] = {
        "tool": f"debug-agent {__version__}",
        "catalog": tri.ledger.catalog.version,
        "seed": opts.seed,
        "mode": "offline",
    }
    if case.target is None:
        notes.append("no --target given: no probe ran; the ranking rests on the symptom and the diff alone")
    elif opts.no_probes:
        notes.append("--no-probes: no probe ran")
    else:
        progress.phase(f"loading target {case.target.path}")
        with Runner(case.target, limits=opts.limits, seed=opts.seed, device=opts.device, cwd=opts.cwd) as runner:
            ready = runner.start()
            meta.update(
                target=f"{case.target.path}:{case.target.func}",
                model_class=ready.info.model_class,
                n_params=ready.info.n_params,
                batch_size=ready.info.batch_size,
                unit_seconds=ready.unit_seconds,
            )
            source_cues, read_notes = scan_files([s.file for s in ready.info.spans])
            notes += read_notes
            tri = triage(case, source_cues)
            reqs, shown, plan_notes = choose(tri, ready, opts)
            notes += plan_notes
            progress.phase(f"running {len(reqs)} probe(s)")
            try:
                results = run_probes(runner, reqs, progress.probe_started, progress.probe_done)
            except KeyboardInterrupt:
                partial = True
                results = _collected(progress)
            results += shown
            notes += [f"probe {r.name} did not finish: {r.summary}" for r in results if r.status == "error"]
            if ready.info.extra.get("initial_loss_nonfinite"):
                notes.append(f"the loss on the batch is already {ready.info.extra.get('initial_loss')} before any step")
            if runner.restarts:
                notes.append(f"the worker was restarted {runner.restarts} time(s) after a timeout or crash")
    add_probes(tri.ledger, results)
    meta["seconds"] = round(time.monotonic() - started, 3)
    return compose(tri.ledger, tri.cues, results, notes, meta, partial=partial)


def _collected(progress: Progress) -> list[ProbeResult]:
    """Results the progress object saw before an interrupt (it keeps them when it can)."""
    return list(getattr(progress, "results", []))
