"""The root-cause report: the nine reference fields plus machine-readable detail."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, field_validator, model_validator

from .probe import ProbeResult

SCHEMA_VERSION = "1.0"

EVIDENCE_PREFIXES = ("Observation:", "Inference:")

# Where an evidence item comes from. Observations cite what was seen (the user's words, a line of
# their diff or source, a probe measurement); inferences may also cite the catalog entry whose
# knowledge they apply.
SOURCE_RE = re.compile(r"^(symptom|diff:.+:\d+|source:.+:\d+|probe:[a-z][a-z0-9_]*|catalog:[a-z_.]+|engine)$")


class Observation(BaseModel):
    """One evidence item with its kind and source."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["observation", "inference"]
    source: str = Field(description="symptom | diff:<file>:<line> | source:<file>:<line> | probe:<name> | catalog:<id>")
    text: str

    @field_validator("source")
    @classmethod
    def _source_form(cls, v: str) -> str:
        if not SOURCE_RE.match(v):
            raise ValueError(
                f"source {v!r} is not one of symptom, diff:<file>:<line>, source:<file>:<line>, "
                "probe:<name>, catalog:<id>, engine"
            )
        return v

    @field_validator("text")
    @classmethod
    def _text_nonempty(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("evidence text is empty")
        return v

    def as_evidence(self) -> str:
        """The reference format: 'Observation: ...' or 'Inference: ...'."""
        return f"{self.kind.capitalize()}: {self.text}"


class Hypothesis(BaseModel):
    """One candidate cause with its credence after weighing."""

    model_config = ConfigDict(extra="forbid")

    cause_id: str
    title: str
    credence: float = Field(ge=0.0, le=1.0)
    status: Literal["supported", "contradicted", "untested"]
    reasons: list[str] = Field(default_factory=list)


class Report(BaseModel):
    """A root-cause report. The first nine fields are the reference format."""

    model_config = ConfigDict(extra="forbid")

    root_cause: str
    confidence: float = Field(ge=0.0, le=1.0)
    evidence: list[str]
    competing_hypotheses: list[str]
    first_action: str
    prediction_if_true: str
    prediction_if_false: str
    immediate_changes: list[str]
    fallback_logic: list[str]

    schema_version: str = SCHEMA_VERSION
    cause_id: str | None = Field(default=None, description="catalog id of the root cause; 'none' when no defect found")
    verdict: Literal["defect", "healthy", "not_bug"] | None = Field(
        default=None, description="the catalog kind of cause_id: a defect, the healthy answer, or not a bug"
    )
    hypotheses: list[Hypothesis] = Field(default_factory=list)
    observations: list[Observation] = Field(default_factory=list)
    probes: list[ProbeResult] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list, description="what the run left out, cut or fell back on")
    partial: bool = Field(default=False, description="true when the run was interrupted before all probes ran")
    meta: dict[str, JsonValue] = Field(default_factory=dict)

    @property
    def found_defect(self) -> bool:
        """True when the verdict names a defect (reports from before `verdict` existed count as defects)."""
        return self.verdict not in ("healthy", "not_bug")

    @field_validator("evidence")
    @classmethod
    def _evidence_prefixed(cls, v: list[str]) -> list[str]:
        for item in v:
            if not item.startswith(EVIDENCE_PREFIXES):
                raise ValueError(f"evidence item must start with 'Observation:' or 'Inference:': {item[:80]!r}")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> Report:
        total = sum(h.credence for h in self.hypotheses)
        if total > 1.0 + 1e-6:
            raise ValueError(f"hypothesis credences sum to {total:.3f}, more than 1")
        if self.observations:
            derived = [o.as_evidence() for o in self.observations]
            if derived != self.evidence:
                raise ValueError("evidence must list the observations, in order, as 'Kind: text'")
        return self
