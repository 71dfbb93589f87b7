"""The failure-mode catalog as data: entries, symptom cues, probe-outcome weights, questions."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

ID_RE = re.compile(r"^(none|[a-z]+\.[a-z_]+)$")


class SymptomCue(BaseModel):
    """A phrase pattern in the user's symptom text that points at a cause."""

    model_config = ConfigDict(extra="forbid")

    pattern: str = Field(description="case-insensitive regular expression")
    weight: float = 1.0

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, v: str) -> str:
        try:
            re.compile(v)
        except re.error as exc:
            raise ValueError(f"symptom pattern {v!r} does not compile: {exc}") from exc
        return v


class CatalogEntry(BaseModel):
    """One failure mode: what it is, how it shows, how to test it, what to do."""

    model_config = ConfigDict(extra="forbid")

    id: str
    title: str
    kind: Literal["defect", "healthy", "not_bug"] = Field(
        default="defect",
        description="defect: a bug to fix; healthy: the 'no defect found' answer (exactly one entry); "
        "not_bug: an ordinary explanation that needs no fix in the code (overfitting, too few steps)",
    )
    explanation: str
    reads_like: str = Field(
        default="",
        description="a short plain description of how this cause reads in a report, for the lexical similarity "
        "between a symptom's words and the entry's text (engine/similarity.py)",
    )
    prior: float = Field(default=0.03, gt=0.0, lt=1.0, description="base rate among reported silent bugs")
    symptoms: list[SymptomCue] = Field(default_factory=list)
    facts: dict[str, float] = Field(
        default_factory=dict,
        description="symptom fact id (see engine/facts.py) -> log-odds weight: what that fact means for this cause",
    )
    code_cues: dict[str, float] = Field(default_factory=dict, description="cue id -> log-odds weight")
    probes: dict[str, dict[str, float]] = Field(
        default_factory=dict,
        description="probe name -> outcome tag -> log-odds weight (positive supports, negative contradicts)",
    )
    inference: str = Field(default="", description="what a supporting probe outcome lets us infer")
    first_action: str
    prediction_if_true: str
    prediction_if_false: str
    fix: str

    @field_validator("id")
    @classmethod
    def _id_form(cls, v: str) -> str:
        if not ID_RE.match(v):
            raise ValueError(f"catalog id {v!r} is not of the form area.name")
        return v

    @model_validator(mode="after")
    def _no_zero_weights(self) -> CatalogEntry:
        zero = [f"code_cues.{k}" for k, w in self.code_cues.items() if w == 0]
        zero += [f"probes.{p}.{t}" for p, tags in self.probes.items() for t, w in tags.items() if w == 0]
        zero += [f"symptoms[{i}]" for i, s in enumerate(self.symptoms) if s.weight == 0]
        zero += [f"facts.{k}" for k, w in self.facts.items() if w == 0]
        if zero:
            raise ValueError(f"entry {self.id!r} has zero weights (say nothing; remove them): {', '.join(zero)}")
        return self

    @property
    def is_finding(self) -> bool:
        """True for a defect; false for the healthy answer and for not-a-bug explanations."""
        return self.kind == "defect"

    @property
    def testable(self) -> bool:
        """True when some probe outcome speaks for or against this cause."""
        return any(self.probes.values())

    def supporting(self, probe: str) -> set[str]:
        """Outcome tags of `probe` that support this cause."""
        return {tag for tag, w in self.probes.get(probe, {}).items() if w > 0}


class Question(BaseModel):
    """A yes/no question a person can answer that separates causes (used by chat)."""

    model_config = ConfigDict(extra="forbid")

    id: str
    text: str
    yes: dict[str, float] = Field(default_factory=dict, description="cause id -> log-odds weight if yes")
    no: dict[str, float] = Field(default_factory=dict, description="cause id -> log-odds weight if no")


class LateFailure(BaseModel):
    """Probes watch a few dozen steps; a failure the user saw only late in training is out of their reach."""

    model_config = ConfigDict(extra="forbid")

    facts: list[str] = Field(description="symptom facts that say the failure appeared only late in training")
    discount: float = Field(gt=0.0, le=1.0, description="factor on the weight of the clean outcomes below")
    clean: dict[str, list[str]] = Field(description="probe -> clean outcomes that cover only a short horizon")


class Catalog(BaseModel):
    """The whole catalog: entries keyed by id, plus the questions."""

    model_config = ConfigDict(extra="forbid")

    version: str
    other_score: float = Field(description="log-score of 'a cause not in the catalog'")
    temperature: float = Field(default=1.0, gt=0.0, description="divides log-scores before normalising")
    none_max_credence: float = Field(
        default=0.6, gt=0.0, le=1.0,
        description="'no defect found' never claims more: probes cannot rule out what they do not test",
    )
    max_credence: float = Field(
        default=0.97,
        gt=0.0,
        le=1.0,
        description="no single cause gets more: experiments have false positives; the rest goes to 'other'",
    )
    unconfirmed_max_credence: float = Field(
        default=1.0,
        gt=0.0,
        le=1.0,
        description="a cause no probe result supports never gets more: words and code cues are not a finding",
    )
    confirm_min_weight: float = Field(
        default=0.0,
        ge=0.0,
        description="the least weight one probe outcome must give a cause to count as confirming it; "
        "smaller weights (a probe that passed, consistent with the cause) leave the unconfirmed cap",
    )
    silent_penalty: float = Field(
        default=0.0,
        ge=0.0,
        description="with no probe run, log-odds taken from each cause the symptom's words say nothing for "
        "while they support some other cause (the words were read and pointed elsewhere)",
    )
    similarity_weight: float = Field(
        default=0.0,
        ge=0.0,
        description="log-odds per standard deviation a cause's lexical similarity to the symptom lies above the "
        "catalog's mean (engine/similarity.py); 0 turns the term off",
    )
    similarity_cap: float = Field(default=0.0, ge=0.0, description="the most log-odds the similarity term may add")
    reports_weight: float = Field(
        default=0.0,
        ge=0.0,
        description="log-odds per standard deviation a cause's naive-Bayes score on its known reports lies above "
        "the catalog's mean (engine/reports.py); 0 turns the term off",
    )
    reports_cap: float = Field(default=0.0, ge=0.0, description="the most log-odds the known-reports term may add")
    reports_alpha: float = Field(default=0.5, gt=0.0, description="Laplace smoothing of the known-reports counts")
    late_failure: LateFailure | None = None
    entries: list[CatalogEntry]
    questions: list[Question] = Field(default_factory=list)

    @field_validator("entries")
    @classmethod
    def _unique(cls, v: list[CatalogEntry]) -> list[CatalogEntry]:
        seen: set[str] = set()
        for e in v:
            if e.id in seen:
                raise ValueError(f"catalog id {e.id!r} appears twice")
            seen.add(e.id)
        healthy = [e.id for e in v if e.kind == "healthy"]
        if len(healthy) != 1:
            raise ValueError(f"exactly one entry must have kind = 'healthy', found {healthy or 'none'}")
        return v

    @property
    def healthy_id(self) -> str:
        """The id of the 'no defect found' answer."""
        return next(e.id for e in self.entries if e.kind == "healthy")

    def get(self, cause_id: str) -> CatalogEntry:
        for e in self.entries:
            if e.id == cause_id:
                return e
        raise KeyError(cause_id)

    @property
    def ids(self) -> list[str]:
        return [e.id for e in self.entries]
