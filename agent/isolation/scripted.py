"""The worker's `script` op: run the training command under observation and turn the run into the
Target (and TargetInfo) the probes use, exactly as a loaded target file would be.

When a piece cannot be captured (the model takes keyword arguments, the loss is computed on a
transformed output) the Target still carries the observation, and the planner sees only the keys that
were captured, so the probes that need the rest are not applicable with the reason in the notes.

May import: torch, schemas, errors, the isolation room's own modules.
"""

from __future__ import annotations

import os
from typing import Any

from pydantic import ValidationError
from torch import nn

from debug_agent.errors import TargetError, validation_problems
from debug_agent.isolation import capture, script
from debug_agent.isolation import target as target_mod
from debug_agent.isolation.observe import Captured, Intervention
from debug_agent.schemas import SourceSpan, Target, TargetInfo, TrainCommand, TrainObservation


def _spans(obs: TrainObservation, info: TargetInfo | None) -> list[SourceSpan]:
    spans = list(info.spans) if info else []
    cmd = obs.command
    if cmd is not None and cmd.kind == "script" and cmd.path and os.path.isfile(cmd.path):
        full = os.path.abspath(cmd.path)
        if all(s.file != full for s in spans):
            spans.insert(0, SourceSpan(role="script", file=full, first_line=1, text=""))
    return spans


def _bare(obs: TrainObservation, model: nn.Module | None, notes: list[str]) -> tuple[Target, TargetInfo]:
    """A Target that carries only the observation (model-level probes are then not applicable)."""
    import torch

    model = model if model is not None else nn.Identity()
    placeholder = torch.zeros(1, 1)
    t = Target(model=model, batch=((placeholder,), placeholder), observation=obs, name="script")
    info = TargetInfo(
        model_class=obs.model_class or type(model).__name__,
        n_params=sum(p.numel() for p in model.parameters()),
        n_trainable=sum(p.numel() for p in model.parameters() if p.requires_grad),
        provided=["model", "observation"],
        input_shapes=[],
        input_dtypes=[],
        batch_size=0,
        spans=_spans(obs, None),
        extra={"capture_notes": notes[:8]},
    )
    return t, info


def load(req: dict[str, Any]) -> tuple[Target, TargetInfo, TrainObservation]:
    cmd = TrainCommand.model_validate(req["command"])
    steps = int(req.get("steps") or 6)
    timeout_s = float(req.get("timeout_s") or 60.0)
    raw_iv = req.get("intervention")
    iv = Intervention(**raw_iv) if isinstance(raw_iv, dict) else None
    run = script.run_script(cmd, steps=steps, timeout_s=timeout_s, intervention=iv)
    script.check_started(run, timeout_s)
    obs = run.observation
    name = os.path.basename(cmd.path or cmd.module or "script")
    t, info = from_capture(run.observer.captured, obs, name, str(req.get("device") or "cpu"))
    return t, info, obs


def from_capture(
    captured: Captured, obs: TrainObservation, name: str, device: str = "cpu"
) -> tuple[Target, TargetInfo]:
    """The Target (and TargetInfo) from what an Observer captured; also used in-process by the
    framework callbacks and `watch()`. Capture notes are appended to `obs.notes`."""
    raw, notes = capture.target_from(captured, obs, name)
    obs.notes += notes
    if raw is None:
        return _bare(obs, captured.model, notes)
    try:
        t = target_mod.to_device(Target.model_validate(raw), device)
        info = target_mod.describe(t)
    except (ValidationError, TargetError) as exc:
        why = validation_problems(exc) if isinstance(exc, ValidationError) else exc.what
        obs.notes.append(f"the captured model and batch do not run as model(*inputs) / loss_fn: {why}"[:300])
        return _bare(obs, captured.model, obs.notes)
    info.spans = _spans(obs, info)
    info.extra["capture_notes"] = notes[:8]
    return t, info


def unit_seconds(t: Target, info: TargetInfo) -> float | None:
    if "batch" not in info.provided or t.loss_fn is None:
        return None
    try:
        return target_mod.unit_seconds(t)
    except RuntimeError:  # e.g. nothing requires grad in the captured model: the probes say so themselves
        return None
