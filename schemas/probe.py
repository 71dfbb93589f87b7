"""What a probe returns, and what the registry says about a probe."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, field_validator

from .case import TargetInfo

ProbeStatus = Literal["passed", "failed", "inconclusive", "error", "not_applicable"]

# Status meanings, shared by the renderer and the engine:
# passed         the experiment ran and found nothing wrong
# failed         the experiment ran and found the defect it looks for
# inconclusive   it ran but its measurements cannot decide (too little signal, budget ran out)
# error          the user's code or the experiment broke (timeout, crash, exception)
# not_applicable the target lacks what the experiment needs (no loss_fn, no eval_fn, ...)


class Finding(BaseModel):
    """One concrete thing a probe saw, with where it happened when known."""

    model_config = ConfigDict(extra="forbid")

    text: str
    where: str | None = Field(default=None, description="file:line of the user's code, when known")
    code: str | None = Field(default=None, description="the source line at `where`")
    data: dict[str, JsonValue] = Field(default_factory=dict)


class ProbeResult(BaseModel):
    """The outcome of one experiment on the user's model."""

    model_config = ConfigDict(extra="forbid")

    name: str
    status: ProbeStatus
    summary: str = ""
    outcomes: list[str] = Field(
        default_factory=list,
        description="outcome tags this run produced; the catalog says what each means for each cause",
    )
    findings: list[Finding] = Field(default_factory=list)
    measurements: dict[str, JsonValue] = Field(default_factory=dict)
    seconds: float = 0.0
    error: str | None = None
    headline: str | None = Field(
        default=None, description="the measurement key the probe declares as its one-figure summary"
    )
    plot: str | None = Field(default=None, description="the kind of figure the probe declares (see report.plots)")

    @field_validator("outcomes")
    @classmethod
    def _outcomes_unique(cls, v: list[str]) -> list[str]:
        return list(dict.fromkeys(v))


class ProbeOption(BaseModel):
    """One option a probe accepts (from its options model), as the registry publishes it."""

    name: str
    type: str
    default: JsonValue = None
    help: str = ""


class ProbeInfo(BaseModel):
    """Registry metadata for one probe: safe to ship across processes and to an LLM."""

    name: str
    help: str
    outcomes: list[str]
    requires: list[str]
    cost: float = Field(description="rough cost in forward+backward passes of the model")
    options: list[ProbeOption] = Field(default_factory=list)
    options_schema: dict[str, Any] = Field(default_factory=dict)


class ProbeRequest(BaseModel):
    """A request to run one probe with options (from the planner, the user or an LLM)."""

    model_config = ConfigDict(extra="forbid")

    name: str
    options: dict[str, JsonValue] = Field(default_factory=dict)
    reason: str = ""
    origin: Literal["planner", "user", "all", "llm"] = Field(
        default="planner", description="who asked: the planner, the user (--probe), --all-probes, or the LLM"
    )


class Ready(BaseModel):
    """What a runner knows once the target is loaded: the target's description and the probes it offers."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    info: TargetInfo
    probes: list[ProbeInfo]
    unit_seconds: float | None = None
