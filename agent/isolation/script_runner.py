"""Parent side for a training command: the child runs the user's script under observation (bounded by
steps and time), captures a Target, and then runs probes on it like any target. A probe that needs the
real loop changed (its options schema names an `x-intervention`) runs in a FRESH child that re-runs the
script with that intervention; the passive child is left as it is.

May import: schemas, errors, the isolation room's own modules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from debug_agent.errors import TargetError, WorkerError
from debug_agent.isolation.runner import Limits, Runner, _Died, _Timeout
from debug_agent.schemas import (
    ProbeInfo,
    ProbeRequest,
    ProbeResult,
    Ready,
    TargetRef,
    TrainCommand,
    TrainObservation,
)

CAPTURE_MARGIN_S = 60.0  # after the script's bound: capture the Target and describe it


def sweep_factors(steps: int, low: float, high: float) -> list[float]:
    """Learning-rate multipliers for step 0..steps-1, geometric from `low` to `high`."""
    n = max(steps, 2)
    return [low * (high / low) ** (k / (n - 1)) for k in range(n)]


class ScriptRunner(Runner):
    """Runs `command` in a child under observation; probes then run on the captured Target."""

    def __init__(
        self,
        command: TrainCommand,
        *,
        steps: int = 6,
        run_timeout_s: float = 120.0,
        limits: Limits | None = None,
        seed: int = 0,
        device: str = "cpu",
        cwd: str | None = None,
        on_stderr: Callable[[str], None] | None = None,
        intervention: dict[str, Any] | None = None,
    ) -> None:
        ref = TargetRef(path=command.path or command.module or "script")
        super().__init__(ref, limits=limits, seed=seed, device=device, cwd=cwd, on_stderr=on_stderr)
        self.command = command
        self.steps = steps
        self.run_timeout_s = run_timeout_s
        self.intervention = intervention

    def start(self) -> Ready:
        """Run the script once under observation; TargetError when it never reaches a training step."""
        self._spawn()
        bound = max(min(self.run_timeout_s, self.time_left()), 1.0)
        self._send(
            {
                "op": "script",
                "command": self.command.model_dump(mode="json"),
                "steps": self.steps,
                "timeout_s": bound,
                "intervention": self.intervention,
                "seed": self.seed,
                "threads": self.limits.threads,
                "device": self.device,
            }
        )
        try:
            msg = self._read(bound + CAPTURE_MARGIN_S)
        except _Timeout:
            self._kill()
            raise TargetError(
                f"the training script did not stop within {bound + CAPTURE_MARGIN_S:.0f}s",
                where=self.command.display(),
                fix="the script may block outside Python (a C extension, a lock); lower --steps or raise --timeout",
            ) from None
        except _Died as exc:
            raise TargetError(
                f"the process running the training script died: {exc}",
                where=self.command.display(),
                fix="run the command on its own to reproduce; lower --max-memory pressure with a smaller batch",
            ) from None
        observation = msg.get("observation")
        return self._accept_ready(
            msg, observation=TrainObservation.model_validate(observation) if observation is not None else None
        )

    def run(self, req: ProbeRequest, budget_s: float | None = None) -> ProbeResult:
        info = next((p for p in self.ready.probes if p.name == req.name), None) if self.ready else None
        kind = info.options_schema.get("x-intervention") if info else None
        if kind:
            return self._fresh(req, info, str(kind))
        return super().run(req, budget_s)

    def _fresh(self, req: ProbeRequest, info: ProbeInfo, kind: str) -> ProbeResult:
        """Re-run the script in a new child with the intervention, then run the probe there."""
        opts = {o.name: o.default for o in info.options} | dict(req.options)
        steps = int(opts.get("steps") or self.steps)
        obs = self.ready.observation if self.ready else None
        loader = next((ld.key for ld in obs.loaders if ld.role == "train"), None) if obs else None
        iv: dict[str, Any] = {"kind": kind, "loader_key": loader}
        if kind == "lr_sweep":
            iv["lr_factors"] = sweep_factors(steps, float(opts.get("low", 1e-2)), float(opts.get("high", 1e2)))
        child = ScriptRunner(
            self.command,
            steps=steps,
            run_timeout_s=min(self.run_timeout_s, max(self.time_left(), 1.0)),
            limits=self.limits,
            seed=self.seed,
            device=self.device,
            cwd=self.cwd,
            on_stderr=self.on_stderr,
            intervention=iv,
        )
        try:
            with child:
                child.start()
                self.peak_rss_mb = max(self.peak_rss_mb, child.peak_rss_mb)
                return Runner.run(child, req)
        except (TargetError, WorkerError) as exc:
            return ProbeResult(
                name=req.name, status="error", summary=f"the re-run with {kind} failed: {exc.what}"[:300]
            )
