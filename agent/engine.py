"""The engine: triage -> plan -> run -> weigh -> Report. Returns a Report and never prints.

Progress is reported through an optional callback object so the CLI (or a notebook) decides how to
show it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol

from . import __version__, catalog, planner
from .cues import scan_diff, scan_files
from .errors import TargetError, UsageError, WorkerError
from .evidence import Ledger, add_cues, add_probes, add_symptoms, match_symptoms
from .narrative import compose
from .runner import Limits, Ready, Runner
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
    if opts.all_probes:
        reqs = [
            ProbeRequest(name=p.name, reason="--all-probes")
            for p in ready.probes
            if planner.applicable(p, ready.info) is None
        ]
        skipped = [planner.Skipped(p.name, why) for p in ready.probes if (why := planner.applicable(p, ready.info))]
    else:
        units = opts.max_units
        if ready.unit_seconds:
            units = min(units, opts.budget_s / max(ready.unit_seconds, 1e-6))
        reqs, skipped = planner.plan(tri.ledger.catalog, tri.ledger.credences(), ready.probes, ready.info, units)
    shown = [ProbeResult(name=s.name, status="not_applicable", summary=s.why) for s in skipped]
    return reqs, shown, [f"probe {s.name} not run: {s.why}" for s in skipped]


class ProbeRunner(Protocol):
    """Runs probes on one target: runner.Runner (a child process) or local.LocalRunner (in-process)."""

    restarts: int

    def __enter__(self) -> ProbeRunner: ...
    def __exit__(self, *exc: object) -> None: ...
    def start(self) -> Ready: ...
    def run(self, req: ProbeRequest, budget_s: float | None = None) -> ProbeResult: ...


def ask(
    case: Case, opts: AskOptions | None = None, progress: Progress | None = None, runner: ProbeRunner | None = None
) -> Report:
    """Diagnose a case. Raises typed errors for bad input; probe failures become results.

    Probes run through `runner`; by default a child process loads `case.target`.
    """
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
    if runner is None and case.target is not None and not opts.no_probes:
        runner = Runner(case.target, limits=opts.limits, seed=opts.seed, device=opts.device, cwd=opts.cwd)
    if opts.no_probes:
        notes.append("--no-probes: no probe ran")
    elif runner is None:
        notes.append("no --target given: no probe ran; the ranking rests on the symptom and the diff alone")
    else:
        progress.phase(f"loading target {case.target.path if case.target else '(in-process)'}")
        with runner:
            ready = runner.start()
            meta.update(
                target=f"{case.target.path}:{case.target.func}" if case.target else "in-process",
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
                results = run_probes(runner, reqs, progress)
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


def run_probes(runner: ProbeRunner, requests: list[ProbeRequest], progress: Progress) -> list[ProbeResult]:
    """Run requests in order. A target or worker failure costs that probe only; usage errors propagate."""
    out = []
    for req in requests:
        progress.probe_started(req)
        try:
            res = runner.run(req)
        except (TargetError, WorkerError) as exc:
            res = ProbeResult(name=req.name, status="error", summary=exc.what[:300], error=str(exc)[:2000])
        out.append(res)
        progress.probe_done(res)
    return out


def _collected(progress: Progress) -> list[ProbeResult]:
    """Results the progress object saw before an interrupt (it keeps them when it can)."""
    return list(getattr(progress, "results", []))
