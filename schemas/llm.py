"""What an LLM may answer. Every field is checked by the engine before it touches a report."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class LLMHypothesis(BaseModel):
    """A cause the LLM reads into the user's words or code; it must quote where it read it."""

    model_config = ConfigDict(extra="forbid")

    cause_id: str = Field(description="a catalog id")
    strength: Literal["low", "medium", "high"]
    quote: str = Field(
        description="the exact phrase from the symptom, or the exact code line, that points at the cause"
    )
    source: str = Field(description="'symptom', or 'diff:<file>:<line>' / 'source:<file>:<line>' for a code line")
    reason: str


class LLMOption(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    value: float | bool | str


class LLMProbeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(description="a probe name from the registry")
    options: list[LLMOption] = Field(description="options from that probe's option list; may be empty")
    reason: str


class LLMTriage(BaseModel):
    """The LLM's reading of the case before probes run."""

    model_config = ConfigDict(extra="forbid")

    hypotheses: list[LLMHypothesis]
    probe_requests: list[LLMProbeRequest]


class LLMInference(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str
    cites: list[int] = Field(description="numbers of the observations this inference rests on")


class LLMNarrative(BaseModel):
    """The LLM's wording of the report for the cause the engine chose."""

    model_config = ConfigDict(extra="forbid")

    cause_id: str = Field(description="must be the cause the engine ranked first")
    root_cause: str
    inferences: list[LLMInference]
    first_action: str
    prediction_if_true: str
    prediction_if_false: str
