"""`DebugAgentCallback` for the Hugging Face `transformers.Trainer`: observe a live run and report.

    Trainer(model=model, args=args, train_dataset=ds, callbacks=[DebugAgentCallback(path="report.md")])

Observation starts when training begins (the Trainer hands the model and its optimizer to the
callback) and the Markdown report is written after the first epoch, or at the end of training when
`max_steps` ends it earlier, or on demand with `callback.report()`. Imports transformers at module
import (nothing else in debug_agent does).

May import: transformers, schemas, errors, isolation, engine, report (through `session`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

try:
    from transformers import TrainerCallback, TrainerControl, TrainerState, TrainingArguments
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "debug_agent.integrations.hf needs Hugging Face transformers: "
        "pip install 'debug-agent[frameworks]' (transformers==4.57.6)"
    ) from exc

from debug_agent.integrations.session import AutoReport
from debug_agent.schemas import Report


class DebugAgentCallback(TrainerCallback):
    """Observes training through the same hooks as `debug-agent ask -- python train.py` and reports.

    `path`: where the Markdown report is written (None: not written; `callback.last_report` holds it);
    `at`: "epoch" (after the first epoch, or at the end if that comes first), "end" or None (on demand).
    """

    def __init__(
        self,
        symptom: str = "",
        *,
        path: str | Path | None = "debug-agent-report.md",
        at: str | None = "epoch",
        seed: int = 0,
        budget_s: float = 30.0,
    ) -> None:
        self.auto = AutoReport(symptom, path, at, seed, budget_s)

    @property
    def last_report(self) -> Report | None:
        return self.auto.watch.last_report

    def report(self, symptom: str | None = None, *, path: str | Path | None = None) -> Report:
        """Diagnose what was observed so far and return the Report (also written to `path`)."""
        return self.auto.report(symptom, path=path)

    def on_train_begin(
        self, args: TrainingArguments, state: TrainerState, control: TrainerControl, **kwargs: Any
    ) -> None:
        self.auto.begin(kwargs.get("model"), kwargs.get("optimizer"))

    def on_epoch_end(
        self, args: TrainingArguments, state: TrainerState, control: TrainerControl, **kwargs: Any
    ) -> None:
        self.auto.moment("epoch")

    def on_train_end(
        self, args: TrainingArguments, state: TrainerState, control: TrainerControl, **kwargs: Any
    ) -> None:
        self.auto.moment("end")
