"""`ask`: triage -> plan -> run -> weigh -> narrate, returning a Report. It never prints.

Progress is reported through an optional callback object so the CLI (or a notebook) decides how to
show it. Probes run through a ProbeRunner the caller supplies (a child process or in-process): the
engine never imports the isolation room.

May import: schemas, errors, cues, the engine's own modules, llm.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from debug_agent._version import __version__
from debug_agent.cues import scan_diff, scan_files
from debug_agent.engine import catalog, paths, planner, reports, similarity
from debug_agent.engine import facts as factmod
from debug_agent.engine.evidence import (
    Ledger,
    add_answers,
    add_cues,
    add_facts,
    add_probes,
    add_reports,
    add_similar,
    add_symptoms,
    match_symptoms,
)
from debug_agent.engine.narrative import compose
from debug_agent.errors import LLMError, LLMUnavailable, TargetError, UsageError, WorkerError
from debug_agent.llm import LLM, MODES, assist
from debug_agent.schemas import (
    Case,
    CodeCue,
    LLMNarrative,
    LLMTriage,
    ProbeInfo,
    ProbeRequest,
    ProbeResult,
    Ready,
    Report,
    TargetRef,
    TrainCommand,
)


class ProbeRunner(Protocol):
    """Runs probes on one target: isolation.Runner (a child process) or isolation.LocalRunner (in-process)."""

    restarts: int

    def __enter__(self) -> ProbeRunner: ...
    def __exit__(self, *exc: object) -> None: ...
    def start(self) -> Ready: ...
    def run(self, req: ProbeRequest, budget_s: float | None = None) -> ProbeResult: ...


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
    # Seconds the planned probes may run, all together: a time limit on execution only. A probe that
    # runs out of it comes back inconclusive or error (noted); the plan never depends on timings.
    budget_s: float = 60.0
    # The plan's size in units of declared probe cost (one unit: a forward+backward on the batch). It
    # comes from counted work, never from a timing, so the same inputs and seed give the same probes:
    # the budget divided by the time one unit would take at a nominal speed, at least `min_units`,
    # at most `max_units`; `plan_units` when the work cannot be counted.
    plan_units: float = 400.0
    min_units: float = 40.0
    max_units: float = 5000.0
    seed: int = 0
    device: str = "cpu"
    cwd: str | None = None
    # Builds the runner for a case's target (the CLI passes a child-process runner); None: no probes.
    runner_factory: Callable[[TargetRef], ProbeRunner] | None = None
    # Builds the runner for a case's training command (runs the script under observation); None: no probes.
    script_runner_factory: Callable[[TrainCommand], ProbeRunner] | None = None
    steps: int = 6  # training steps each observed run of a script may take


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
    add_facts(ledger, factmod.extract(case.symptom))
    add_similar(ledger, similarity.similar(case.symptom, cat))
    add_reports(ledger, reports.typical(case.symptom, cat))
    add_answers(ledger, case.answers)
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
            ProbeRequest(name=p.name, reason="--all-probes", origin="all")
            for p in ready.probes
            if planner.applicable(p, ready.info) is None
        ]
        skipped = [planner.Skipped(p.name, why) for p in ready.probes if (why := planner.applicable(p, ready.info))]
    else:
        units = plan_units(ready.info.extra.get("step_flops"), opts)
        cred = tri.ledger.credences(skip=("reports",))  # known reports rank; they never thin the plan
        reqs, skipped = planner.plan(tri.ledger.catalog, cred, ready.probes, ready.info, units)
    shown = [ProbeResult(name=s.name, status="not_applicable", summary=s.why) for s in skipped]
    return reqs, shown, [f"probe {s.name} not run: {s.why}" for s in skipped]


NOMINAL_FLOPS = 1e11  # operations per second assumed for planning (a fixed figure, so plans are reproducible)
STEP_OVERHEAD_S = 1e-3  # Python overhead of one training step, also assumed


def plan_units(flops: object, opts: AskOptions) -> float:
    """How many units of declared cost the plan may spend, from the counted work of one step."""
    if not isinstance(flops, (int, float)) or flops <= 0:
        return opts.plan_units
    unit = STEP_OVERHEAD_S + float(flops) / NOMINAL_FLOPS
    return max(opts.min_units, min(opts.max_units, opts.budget_s / unit))


@dataclass
class ProbeRun:
    """What running the plan produced: the results, and whether Ctrl-C cut it short."""

    results: list[ProbeResult]
    interrupted: bool = False


@dataclass
class Run:
    """The state of one `ask` as it moves through the steps."""

    case: Case
    opts: AskOptions
    tri: Triage
    notes: list[str]
    meta: dict[str, Any] = field(default_factory=dict)
    results: list[ProbeResult] = field(default_factory=list)
    partial: bool = False


def ask(
    case: Case,
    opts: AskOptions | None = None,
    progress: Progress | None = None,
    runner: ProbeRunner | None = None,
    llm: LLM | None = None,
) -> Report:
    """Diagnose a case. Raises typed errors for bad input; probe failures become results.

    Probes run through `runner`, or one built by `opts.runner_factory` for `case.target`. With `llm`,
    an OpenAI-compatible model may add checked hypotheses and probe requests, and word the report.
    """
    opts = opts or AskOptions()
    progress = progress or _Silent()
    started = time.monotonic()
    progress.phase("triage: symptom and diff")
    run = Run(case, opts, triage(case), list(case.notes) + (case.diff.notes if case.diff else []))
    run.meta = {
        "tool": f"debug-agent {__version__}",
        "catalog": run.tri.ledger.catalog.version,
        "seed": opts.seed,
        "mode": "llm" if llm else "offline",
    }
    helper = _Assist(llm, progress)
    if runner is None and case.target is not None and not opts.no_probes and opts.runner_factory is not None:
        runner = opts.runner_factory(case.target)
    if runner is None and case.command is not None and not opts.no_probes and opts.script_runner_factory:
        runner = opts.script_runner_factory(case.command)
        run.meta["command"] = case.command.display()
    if opts.no_probes or runner is None:
        run.notes.append(_why_no_probes(case, opts))
        helper.triage(case, run.tri, [])
    else:
        _probe(run, runner, helper, progress)
    add_probes(run.tri.ledger, run.results)  # weigh
    run.meta["seconds"] = round(time.monotonic() - started, 3)
    report = compose(run.tri.ledger, run.tri.cues, run.results, run.notes, run.meta, partial=run.partial)
    return helper.narrate(paths.relative(report, opts.cwd))  # narrate (paths as the report shows them)


def _why_no_probes(case: Case, opts: AskOptions) -> str:
    if opts.no_probes:
        return "--no-probes: no probe ran"
    if case.target is None and case.command is None:
        return "no --target given: no probe ran; the ranking rests on the symptom and the diff alone"
    return "no probe runner was available: no probe ran"


def _probe(run: Run, runner: ProbeRunner, helper: _Assist, progress: Progress) -> None:
    """Load the target, re-triage with its source cues, plan, and run the probes."""
    case = run.case
    if case.command is not None and case.target is None:
        progress.phase(f"running `{case.command.display()[:80]}` under observation ({run.opts.steps} steps at most)")
    else:
        progress.phase(f"loading target {case.target.path if case.target else '(in-process)'}")
    with runner:
        ready = runner.start()
        catalog.require_known_outcomes(run.tri.ledger.catalog, ready.probes)
        if ready.observation is not None:
            run.meta["observed_run"] = _run_summary(ready)
            run.notes += [f"observed run: {n}" for n in ready.observation.notes]
        run.meta.update(
            target=f"{case.target.path}:{case.target.func}" if case.target else "in-process"
            if case.command is None
            else f"command: {case.command.display()[:200]}",
            model_class=ready.info.model_class,
            n_params=ready.info.n_params,
            batch_size=ready.info.batch_size,
            unit_seconds=ready.unit_seconds,
        )
        source_cues, read_notes = scan_files([s.file for s in ready.info.spans])
        run.notes += read_notes
        run.tri = triage(case, source_cues)
        reqs = _plan(run, ready, helper.triage(case, run.tri, ready.probes))
        progress.phase(f"running {len(reqs)} probe(s)")
        done = run_probes(runner, reqs, progress, run.opts.budget_s)
        run.partial = done.interrupted
        run.results = done.results + run.results
        run.notes += [f"probe {r.name} did not finish: {r.summary}" for r in run.results if r.status == "error"]
        for key in ("isolation", "causal_inferred", "call_form", "lazy_layers", "batch_axis"):
            if ready.info.extra.get(key):
                run.notes.append(str(ready.info.extra[key]))
        if ready.info.extra.get("initial_loss_nonfinite"):
            run.notes.append(f"the loss on the batch is already {ready.info.extra.get('initial_loss')} before any step")
        if runner.restarts:
            run.notes.append(f"the worker was restarted {runner.restarts} time(s) after a timeout or crash")
        if getattr(runner, "peak_rss_mb", 0):
            run.meta["worker_peak_rss_mb"] = runner.peak_rss_mb


def _run_summary(ready: Ready) -> dict[str, Any]:
    """What the observed run did, for the report's meta (plain JSON)."""
    obs = ready.observation
    if obs is None:
        return {}
    return {
        "steps": len(obs.steps),
        "step_kind": obs.steps[0].kind if obs.steps else None,
        "ended": obs.ended,
        "seconds": obs.seconds,
        "loss": obs.loss.name if obs.loss else None,
        "loaders": [f"{ld.key} ({ld.role})" for ld in obs.loaders][:8],
        "error": obs.error,
    }


def _plan(run: Run, ready: Ready, llm_requests: list[ProbeRequest]) -> list[ProbeRequest]:
    """The planner's (or the user's) probes, plus applicable LLM requests; not-applicable ones are shown."""
    reqs, shown, plan_notes = choose(run.tri, ready, run.opts)
    run.results += shown
    run.notes += plan_notes
    if run.opts.probes:
        return reqs
    planned = {r.name for r in reqs}
    infos = {p.name: p for p in ready.probes}
    return reqs + [
        r
        for r in llm_requests
        if r.name not in planned and r.name in infos and planner.applicable(infos[r.name], ready.info) is None
    ]


class _Assist:
    """The LLM's part of a run, with its failures turned into notes (or LLMUnavailable when required)."""

    def __init__(self, llm: LLM | None, progress: Progress) -> None:
        self.llm = llm
        self.progress = progress
        self.notes: list[str] = []
        self.failed = False
        if llm is not None:
            llm.new_turn()  # the LLM's time and token budgets are per run (per chat /run)

    def _fail(self, exc: LLMError, stage: str) -> None:
        if self.llm is not None and self.llm.cfg.required and isinstance(exc, LLMUnavailable):
            raise exc
        self.failed = True
        self.notes.append(f"LLM {stage} failed ({exc.what}); the offline engine's answer is used")

    def triage(self, case: Case, tri: Triage, probes: list[ProbeInfo]) -> list[ProbeRequest]:
        if self.llm is None or self.failed:
            return []
        self.progress.phase(f"asking the LLM ({self.llm.cfg.model}) to read the case")
        prompt, redacted = assist.triage_prompt(case, tri.cues, tri.ledger, probes, self.llm.cfg.send_code)
        if redacted:
            self.notes.append(f"{redacted} secret(s) redacted before anything was sent to the LLM")
        try:
            answer = self.llm.ask(LLMTriage, assist.SYSTEM, prompt)
        except LLMError as exc:
            self._fail(exc, "triage")
            return []
        reqs, notes = assist.apply_triage(answer, case, tri.cues, tri.ledger, probes)
        self.notes += notes
        return reqs

    def narrate(self, report: Report) -> Report:
        if self.llm is None:
            return report
        if not self.failed:
            self.progress.phase("asking the LLM to word the report")
            try:
                prompt = assist.narrative_prompt(report, self.llm.cfg.send_code)
                answer = self.llm.ask(LLMNarrative, assist.SYSTEM, prompt)
                report, notes = assist.apply_narrative(answer, report)
                self.notes += notes
            except LLMError as exc:
                self._fail(exc, "narrative")
        u = self.llm.usage
        self.progress.phase(f"LLM used: {u.calls} call(s), {u.tokens} tokens, {u.seconds:.1f}s")
        meta = report.meta | {
            "llm": {
                "model": self.llm.cfg.model,
                "base_url": self.llm.shown_base_url,
                "calls": u.calls,
                "tokens": u.tokens,
                "seconds": round(u.seconds, 2),
                "structured_output": MODES[self.llm.mode],
                "fell_back": self.failed,
            }
        }
        return report.model_copy(update={"notes": report.notes + u.notes + self.notes, "meta": meta})


def run_probes(
    runner: ProbeRunner, requests: list[ProbeRequest], progress: Progress, budget_s: float | None = None
) -> ProbeRun:
    """Run requests in order within `budget_s` seconds in all; Ctrl-C stops the run and keeps what finished.

    A target or worker failure costs that probe only; a probe the budget leaves no time for is an
    error result saying so; a usage error propagates unless the LLM asked.
    """
    out: list[ProbeResult] = []
    deadline = None if budget_s is None else time.monotonic() + budget_s
    try:
        for req in requests:
            progress.probe_started(req)
            left = None if deadline is None else deadline - time.monotonic()
            try:
                res = runner.run(req, left) if left is None or left > 0 else _budget_spent(req, budget_s)
            except (TargetError, WorkerError) as exc:
                res = ProbeResult(name=req.name, status="error", summary=exc.what[:300], error=str(exc)[:2000])
            except UsageError as exc:
                if req.origin != "llm":
                    raise
                res = ProbeResult(name=req.name, status="error", summary=f"LLM request rejected: {exc.what}"[:300])
            out.append(res)
            progress.probe_done(res)
    except KeyboardInterrupt:
        return ProbeRun(out, interrupted=True)
    return ProbeRun(out)


def _budget_spent(req: ProbeRequest, budget_s: float | None) -> ProbeResult:
    return ProbeResult(
        name=req.name,
        status="error",
        summary=f"not run: the probe time budget (--budget {budget_s:g}s) was spent",
        error="budget spent",
    )
