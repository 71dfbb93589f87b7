"""What a passive observation of a real training run recorded, and the training command it ran.

`TrainCommand` is the user's command after `--` as intake parsed it; `TrainObservation` is what
`debug_agent.isolation.observe.Observer` saw while the script ran: plain data (no tensors), JSON-safe,
bounded in size whatever the script does. Every event keeps the user's own `file:line`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue


class TrainCommand(BaseModel):
    """`python train.py args`, `python -m pkg.train args` or `torchrun ... script.py args`, as parsed."""

    model_config = ConfigDict(extra="forbid")

    argv: list[str] = Field(description="the command exactly as given after `--`")
    kind: Literal["script", "module"]
    path: str | None = Field(default=None, description="the script file (kind 'script'), as given")
    module: str | None = Field(default=None, description="the module name (kind 'module')")
    args: list[str] = Field(default_factory=list, description="arguments after the script or module")
    launcher: str = Field(default="python", description="python or torchrun (run as one process)")
    notes: list[str] = Field(default_factory=list, description="what intake changed or ignored (launcher flags)")

    @property
    def sys_argv(self) -> list[str]:
        """What the script sees as sys.argv."""
        return [self.path or self.module or ""] + self.args

    def display(self) -> str:
        return " ".join(self.argv)


class Site(BaseModel):
    """A place in the user's code: display path, line and the source line."""

    model_config = ConfigDict(extra="forbid")

    file: str
    line: int
    code: str = ""

    @property
    def ref(self) -> str:
        """The report's citation form, `script:<file>:<line>`."""
        return f"script:{self.file}:{self.line}"


class StepRecord(BaseModel):
    """One training step: an optimizer step, or a hand-written update recognised from parameter changes."""

    model_config = ConfigDict(extra="forbid")

    index: int = Field(description="0-based step number")
    kind: Literal["optimizer", "manual"]
    loss: float | None = Field(default=None, description="value of the tensor backward was called on (unscaled)")
    backwards: int = Field(default=0, description="backward calls since the previous step")
    lr: list[float] = Field(default_factory=list, description="learning rate per param group (optimizer steps)")
    grad_norms: list[float | None] = Field(default_factory=list, description="gradient L2 norm per param group")
    grads_cleared: bool | None = Field(
        default=None, description="False when non-zero grads from the previous step were still there at this backward"
    )
    params_changed: int = Field(default=0, description="parameter tensors this step changed (of those checked)")
    params_total: int = Field(
        default=0, description="parameter tensors checked (optimizer steps: those not seen changing at an earlier step)"
    )
    model_training: bool | None = Field(default=None, description="the model's .training flag at the forward")
    where: Site | None = Field(default=None, description="where the step was taken (optimizer.step / update line)")
    backward_where: Site | None = None


class ModePass(BaseModel):
    """A top-level model call: training (grad enabled, backpropagated) or evaluation (no_grad/inference)."""

    model_config = ConfigDict(extra="forbid")

    role: Literal["train", "eval"] = Field(description="train when a backward pass followed the call")
    grad_enabled: bool = True
    model_class: str
    model_training: bool
    modes_train: list[str] = Field(default_factory=list, description="mode-dependent modules in training mode")
    modes_eval: list[str] = Field(default_factory=list, description="mode-dependent modules in eval mode")
    calls: int = 1
    where: Site | None = None


class LoaderRecord(BaseModel):
    """One DataLoader the script iterated, keyed by where it was iterated."""

    model_config = ConfigDict(extra="forbid")

    key: str = Field(description="file:line of the iteration (the intervention key)")
    role: Literal["train", "eval", "unknown"] = "unknown"
    batches: int = 0
    kept: int = Field(default=0, description="batches kept (bounded copies) for the probes")
    batch_size: int | None = None
    length: int | None = Field(default=None, description="batches per epoch (len of the loader), when it has one")
    num_workers: int = 0
    where: Site | None = None


class ScheduleRecord(BaseModel):
    """One learning-rate scheduler the run stepped: how often per optimizer step, and where its learning
    rate would go over one epoch at that pace (projected on a copy at its first step)."""

    model_config = ConfigDict(extra="forbid")

    kind: str = Field(description="the scheduler's class name")
    where: Site | None = Field(default=None, description="where scheduler.step() was called")
    calls_at: list[int] = Field(default_factory=list, description="optimizer steps taken before each step() call")
    lr_start: float | None = Field(default=None, description="group 0's learning rate at the first step() call")
    per_batch_by_design: bool = Field(default=False, description="a schedule torch documents as stepped per batch")
    epoch_batches: int | None = Field(default=None, description="batches per epoch of the training data, when known")
    projected_steps: int = Field(default=0, description="step() calls projected on a copy (half an epoch)")
    projected_min_ratio: float | None = Field(
        default=None, description="lowest learning rate over the projection, over its peak before that point"
    )
    projected_min_at: int | None = Field(default=None, description="projected step() call where that lowest value fell")
    first_change_at: int | None = Field(default=None, description="projected step() call where the rate first changed")
    first_change_ratio: float | None = Field(
        default=None, description="the rate after its first change over the rate before it (a single call's cut)"
    )
    long_steps: int = Field(default=0, description="step() calls projected for a decay that never rises (a few epochs)")
    long_min_ratio: float | None = Field(default=None, description="lowest rate over the long projection / peak")
    long_min_at: int | None = Field(default=None, description="projected step() call where that lowest value fell")

    @property
    def per_step(self) -> bool:
        """Stepped at (almost) every optimizer step: three calls or more, never two optimizer steps apart."""
        gaps = [b - a for a, b in zip(self.calls_at, self.calls_at[1:], strict=False)]
        return len(self.calls_at) >= 3 and all(g <= 1 for g in gaps)


class LossCall(BaseModel):
    """The loss function seen: a loss module or a functional loss whose result was backpropagated, or the
    loss a model computed in its forward from a `labels=` argument (kind "model_output")."""

    model_config = ConfigDict(extra="forbid")

    name: str
    kind: Literal["module", "functional", "model_output", "unknown"]
    kwargs: dict[str, JsonValue] = Field(default_factory=dict)
    on_model_output: bool = Field(default=False, description="its first argument was the model's output itself")
    where: Site | None = None


class NonFinite(BaseModel):
    model_config = ConfigDict(extra="forbid")

    step: int
    what: str = Field(description="loss | grad:<param> | param:<param>")
    where: Site | None = None


class TrainObservation(BaseModel):
    """Everything the observer recorded in one bounded run of the user's script."""

    model_config = ConfigDict(extra="forbid")

    command: TrainCommand | None = None
    intervention: str | None = Field(default=None, description="repeat_first_batch | lr_sweep | None (passive)")
    ended: Literal["step_limit", "time_limit", "finished", "exit", "crash", "running"] = "running"
    exit_code: int | None = None
    error: str | None = Field(default=None, description="the script's own exception, when it crashed")
    error_where: Site | None = None
    seconds: float = 0.0
    steps: list[StepRecord] = Field(default_factory=list)
    passes: list[ModePass] = Field(default_factory=list, description="distinct (role, mode, site) model calls")
    loaders: list[LoaderRecord] = Field(default_factory=list)
    loss: LossCall | None = None
    schedulers: list[ScheduleRecord] = Field(default_factory=list, description="LR schedulers stepped")
    model_class: str | None = None
    model_call: dict[str, JsonValue] | None = Field(
        default=None, description="structure of the first training call's arguments (shapes, dtypes, keys)"
    )
    params_never_grad: list[str] = Field(default_factory=list, description="trainable params that never got a grad")
    params_never_changed: list[str] = Field(default_factory=list, description="params with a grad that no step changed")
    params_frozen: list[str] = Field(default_factory=list, description="params with requires_grad=False")
    params_not_in_optimizer: list[str] = Field(default_factory=list)
    first_nonfinite: NonFinite | None = None
    scaler: list[str] = Field(default_factory=list, description="AMP GradScaler events (skipped steps, scale)")
    notes: list[str] = Field(default_factory=list)

    @property
    def losses(self) -> list[float | None]:
        return [s.loss for s in self.steps]
