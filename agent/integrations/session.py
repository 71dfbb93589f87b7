"""`Watch`: observe a live training run in this process, then diagnose it on demand.

Used by `debug_agent.watch(model, optimizer)` and by the framework callbacks. Observation goes through
`isolation.observe.Observer` (global hooks, removed again on `stop()`); a report captures a Target from
what was observed and runs `engine.ask` with the in-process `LocalRunner`, so the probes work on copies
and the user's model, optimizer and random state are left as they were. Hooks are off while the probes
run, so the probes' own passes are never recorded as the user's.

May import: torch, schemas, errors, isolation, engine, report.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from debug_agent.engine import AskOptions
from debug_agent.engine import ask as engine_ask
from debug_agent.isolation import probe_registry, scripted
from debug_agent.isolation.local import LocalRunner
from debug_agent.isolation.observe import Observer
from debug_agent.report import render
from debug_agent.schemas import Case, Ready, Report, Target, TargetInfo, TrainObservation


class ObservedRunner(LocalRunner):
    """The in-process runner on a Target captured from an observed run: Ready carries the observation
    and what was captured (the planner then offers only the probes whose pieces exist)."""

    def __init__(self, target: Target, info: TargetInfo, observation: TrainObservation, **kw: Any) -> None:
        super().__init__(target, **kw)
        self.info = info
        self.observation = observation

    def start(self) -> Ready:
        unit = scripted.unit_seconds(self.target, self.info)
        probes = [s.info(self.info.provided) for s in probe_registry().values()]
        self.ready = Ready(info=self.info, probes=probes, unit_seconds=unit, observation=self.observation)
        return self.ready


class Watch:
    """Observes training of `model` (and `optimizer`) from `start()` until `stop()`; `report()` diagnoses it.

    Use as a context manager (`with watch(model, opt) as w: ...; w.report()`) or keep the object and
    call `report()` whenever the symptom shows; observation resumes after a report while the watch is on.
    """

    def __init__(
        self,
        model: Any = None,
        optimizer: Any = None,
        *,
        symptom: str = "",
        name: str = "watched run",
        seed: int = 0,
        budget_s: float = 30.0,
        keep_pairs: int = 64,
    ) -> None:
        self.model = model
        self.optimizer = optimizer
        self.symptom = symptom
        self.name = name
        self.seed = seed
        self.budget_s = budget_s
        self.observer = Observer(max_steps=None, keep_pairs=keep_pairs)
        self.active = False
        self.last_report: Report | None = None

    # -- observation -------------------------------------------------------------------------------

    def start(self) -> Watch:
        """Install the hooks (idempotent) and name the model and optimizer when known."""
        if not self.active:
            self.observer.install()
            self.active = True
        if self.model is not None:
            self.observer.watch(self.model, self.optimizer)
        return self

    def attach(self, model: Any, optimizer: Any = None) -> None:
        """Name the model (and optimizer) once they exist (the framework callbacks learn them late)."""
        self.model = model if model is not None else self.model
        self.optimizer = optimizer if optimizer is not None else self.optimizer
        if self.active and self.model is not None:
            self.observer.watch(self.model, self.optimizer)

    def stop(self) -> None:
        """Remove every hook; what was observed stays available to `report()`."""
        if self.active:
            self.observer.remove()
            self.active = False

    def __enter__(self) -> Watch:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def steps(self) -> int:
        """Training steps observed so far."""
        return self.observer.steps

    def observation(self) -> TrainObservation:
        """What the hooks recorded so far (a JSON-safe copy)."""
        return self.observer.observation()

    # -- diagnosis ---------------------------------------------------------------------------------

    def report(self, symptom: str | None = None, *, path: str | Path | None = None) -> Report:
        """Diagnose what was observed and return the Report; with `path`, also write it as Markdown.

        The symptom is optional: without one the report says what the observed run itself shows.
        """
        resume = self.active
        self.stop()
        try:
            report = self._diagnose(self.symptom if symptom is None else symptom)
        finally:
            if resume:
                self.start()
        self.last_report = report
        if path is not None:
            write_markdown(report, path)
        return report

    def _diagnose(self, symptom: str) -> Report:
        obs = self.observer.observation()
        obs.ended = "running"
        notes = [] if obs.steps else ["no training step was observed yet: the report rests on the symptom alone"]
        runner = None
        if obs.steps:
            target, info = scripted.from_capture(self.observer.captured, obs, self.name)
            runner = ObservedRunner(target, info, obs, seed=self.seed, budget_s=max(self.budget_s, 30.0))
        opts = AskOptions(budget_s=self.budget_s, seed=self.seed, no_probes=runner is None)
        report = engine_ask(Case(symptom=symptom), opts, runner=runner)
        return report.model_copy(update={"notes": report.notes + notes}) if notes else report


def write_markdown(report: Report, path: str | Path) -> Path:
    """Write the report as Markdown for an issue (parent folders created); returns the path."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render.to_markdown(report), encoding="utf-8")
    return out


def watch(model: Any = None, optimizer: Any = None, *, symptom: str = "", **options: Any) -> Watch:
    """Start observing training in this process (a notebook, a hand-written loop); see `Watch`."""
    return Watch(model, optimizer, symptom=symptom, **options).start()


class AutoReport:
    """What both framework callbacks share: one Watch, a report written once at `at`, or on demand.

    `at="epoch"`: after the first training epoch (or at the end of training if no epoch ended);
    `at="end"`: at the end of training; `at=None`: only when `report()` is called. Observation stops
    after the automatic report, so the rest of the run trains at full speed.
    """

    AT = ("epoch", "end", None)

    def __init__(
        self,
        symptom: str,
        path: str | Path | None,
        at: str | None,
        seed: int,
        budget_s: float,
    ) -> None:
        if at not in self.AT:
            raise ValueError(f"at must be one of {self.AT}, got {at!r}")
        self.watch = Watch(symptom=symptom, seed=seed, budget_s=budget_s, name="framework run")
        self.path = path
        self.at = at
        self.reported = False

    def begin(self, model: Any, optimizer: Any = None) -> None:
        if not self.reported:
            self.watch.attach(model, optimizer)
            self.watch.start()

    def report(self, symptom: str | None = None, *, path: str | Path | None = None) -> Report:
        """Diagnose now; writes Markdown to `path` (or the callback's path, when set)."""
        self.reported = True
        return self.watch.report(symptom, path=path if path is not None else self.path)

    def moment(self, which: str) -> Report | None:
        """Called by the callback at 'epoch' (first epoch end) and 'end' (training end)."""
        due = self.at == which or (which == "end" and self.at == "epoch")
        report = self.report() if due and not self.reported else None
        if self.reported or which == "end":
            self.watch.stop()
        return report
