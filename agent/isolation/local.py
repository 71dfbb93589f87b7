"""An in-process probe runner for the Python API and the test helpers: the user's objects are already
in this process, so there is nothing to import or isolate. Same interface as runner.Runner."""

from __future__ import annotations

from debug_agent import probes
from debug_agent.isolation import probe_registry
from debug_agent.isolation import target as target_mod
from debug_agent.isolation.boundary import run_isolated
from debug_agent.schemas import ProbeRequest, ProbeResult, Ready, Target


class LocalRunner:
    """Runs probes on a validated Target in this process. Probes copy; the caller's objects stay as they are."""

    restarts = 0

    def __init__(self, target: Target, *, seed: int = 0, budget_s: float = 60.0) -> None:
        self.target = target
        self.seed = seed
        self.budget_s = budget_s
        self.ready: Ready | None = None

    def __enter__(self) -> LocalRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def start(self) -> Ready:
        registry = probe_registry()
        info = target_mod.describe(self.target)
        unit = target_mod.unit_seconds(self.target)
        self.ready = Ready(info=info, probes=[s.info(info.provided) for s in registry.values()], unit_seconds=unit)
        return self.ready

    def run(self, req: ProbeRequest, budget_s: float | None = None) -> ProbeResult:
        ctx = probes.ProbeContext(
            seed=self.seed,
            budget_s=budget_s or self.budget_s,
            unit_seconds=self.ready.unit_seconds if self.ready else None,
        )
        return run_isolated(req.name, self.target, ctx, req.options)
