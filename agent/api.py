"""The Python API: `diagnose()` for notebooks. Probes run in this process on copies of your objects."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from debug_agent.engine import AskOptions, Progress
from debug_agent.engine import ask as engine_ask
from debug_agent.errors import TargetError, validation_problems
from debug_agent.intake import diff as diffmod
from debug_agent.isolation.local import LocalRunner
from debug_agent.schemas import Case, ProbeRequest, Report, Target


def make_target(**fields: Any) -> Target:
    """A validated Target; protocol mistakes raise TargetError with what to fix."""
    try:
        return Target.model_validate({k: v for k, v in fields.items() if v is not None})
    except ValidationError as exc:
        problems = validation_problems(exc)
        raise TargetError(
            f"these objects do not fit the target protocol: {problems}", fix="see the README section 'Target protocol'"
        ) from exc


def diagnose(
    model: Any,
    batch: tuple[Any, Any],
    loss_fn: Callable[..., Any] | None = None,
    *,
    symptom: str = "",
    diff: str | Path | None = None,
    optimizer: Callable[..., Any] | None = None,
    train_step: Callable[..., Any] | None = None,
    eval_fn: Callable[..., Any] | None = None,
    metric_fn: Callable[..., Any] | None = None,
    train_data: Any = None,
    val_data: Any = None,
    groups: tuple[Any, Any] | None = None,
    causal: bool | None = None,
    sequence_dim: int = 1,
    call_model: Callable[..., Any] | None = None,
    batch_axis: Any = None,
    probes: list[str] | None = None,
    all_probes: bool = False,
    seed: int = 0,
    budget_s: float = 60.0,
    progress: Progress | None = None,
) -> Report:
    """Diagnose a model in this process and return the Report (the same one `debug-agent ask` prints).

    `diff` is unified-diff text or a path to a diff file. Your model, optimizer and random state are
    left as they were: every probe works on copies with a fixed seed.
    """
    target = make_target(
        model=model,
        batch=batch,
        loss_fn=loss_fn,
        optimizer=optimizer,
        train_step=train_step,
        eval_fn=eval_fn,
        metric_fn=metric_fn,
        train_data=train_data,
        val_data=val_data,
        groups=groups,
        causal=causal,
        sequence_dim=sequence_dim,
        call_model=call_model,
        batch_axis=batch_axis,
    )
    parsed = None
    if diff is not None:
        text = (
            Path(diff).read_text(encoding="utf-8")
            if isinstance(diff, Path) or (isinstance(diff, str) and "\n" not in diff and Path(diff).is_file())
            else str(diff)
        )
        parsed = diffmod.parse(text)
    case = Case(symptom=symptom, diff=parsed)
    opts = AskOptions(
        probes=[ProbeRequest(name=n) for n in probes or []], all_probes=all_probes, budget_s=budget_s, seed=seed
    )
    report = engine_ask(case, opts, progress, runner=LocalRunner(target, seed=seed, budget_s=max(budget_s, 30.0)))
    return report
