"""`DebugAgentCallback` for PyTorch Lightning: observe a live `Trainer.fit` and write the report.

    trainer = Trainer(callbacks=[DebugAgentCallback(symptom="val loss is noisy", path="report.md")])

Observation starts when fitting sets up (so the sanity validation is seen too) and the Markdown report
is written after the first training epoch (validation included), or on demand with `callback.report()`.
Imports lightning at module import (nothing else in debug_agent does).

May import: lightning, schemas, errors, isolation, engine, report (through `session`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

try:
    import lightning.pytorch as pl
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "debug_agent.integrations.lightning needs PyTorch Lightning: "
        "pip install 'debug-agent[frameworks]' (lightning==2.6.6)"
    ) from exc

from debug_agent.integrations.session import AutoReport
from debug_agent.schemas import Report


class DebugAgentCallback(pl.Callback):
    """Observes training through the same hooks as `debug-agent ask -- python train.py` and reports.

    `path`: where the Markdown report is written (None: not written; `callback.last_report` holds it);
    `at`: "epoch" (after the first epoch), "end" (after fit) or None (only `callback.report()`).
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
        super().__init__()
        self.auto = AutoReport(symptom, path, at, seed, budget_s)

    @property
    def last_report(self) -> Report | None:
        return self.auto.watch.last_report

    def report(self, symptom: str | None = None, *, path: str | Path | None = None) -> Report:
        """Diagnose what was observed so far and return the Report (also written to `path`)."""
        return self.auto.report(symptom, path=path)

    def setup(self, trainer: pl.Trainer, pl_module: pl.LightningModule, stage: str) -> None:
        if stage == "fit":
            self.auto.begin(pl_module)

    def on_train_start(self, trainer: pl.Trainer, pl_module: pl.LightningModule) -> None:
        optimizers: list[Any] = list(trainer.optimizers)
        self.auto.begin(pl_module, optimizers[0] if optimizers else None)

    def on_train_epoch_end(self, trainer: pl.Trainer, pl_module: pl.LightningModule) -> None:
        self.auto.moment("epoch")

    def on_train_end(self, trainer: pl.Trainer, pl_module: pl.LightningModule) -> None:
        self.auto.moment("end")

    def teardown(self, trainer: pl.Trainer, pl_module: pl.LightningModule, stage: str) -> None:
        self.auto.watch.stop()  # also after an exception in the user's code
