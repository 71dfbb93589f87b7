"""Pydantic models shared by every part of debug-agent. The leaf of the house: imports nothing of ours."""

from .case import (
    Case,
    CodeCue,
    DiffHunk,
    DiffLine,
    ParsedDiff,
    SourceSpan,
    SymptomMatch,
    TargetInfo,
    TargetRef,
)
from .catalog import Catalog, CatalogEntry, Question, SymptomCue
from .llm import LLMHypothesis, LLMInference, LLMNarrative, LLMOption, LLMProbeRequest, LLMTriage
from .observation import (
    LoaderRecord,
    LossCall,
    ModePass,
    NonFinite,
    ScheduleRecord,
    Site,
    StepRecord,
    TrainCommand,
    TrainObservation,
)
from .probe import Finding, ProbeInfo, ProbeOption, ProbeRequest, ProbeResult, ProbeStatus, Ready
from .report import SCHEMA_VERSION, Hypothesis, Observation, Report
from .target import TARGET_KEYS, Target, call_whole

__all__ = [
    "Case",
    "Catalog",
    "CatalogEntry",
    "CodeCue",
    "DiffHunk",
    "DiffLine",
    "Finding",
    "Hypothesis",
    "LoaderRecord",
    "ScheduleRecord",
    "LossCall",
    "ModePass",
    "NonFinite",
    "Site",
    "StepRecord",
    "TrainCommand",
    "TrainObservation",
    "LLMHypothesis",
    "LLMInference",
    "LLMNarrative",
    "LLMOption",
    "LLMProbeRequest",
    "LLMTriage",
    "Observation",
    "ParsedDiff",
    "ProbeInfo",
    "ProbeOption",
    "ProbeRequest",
    "ProbeResult",
    "ProbeStatus",
    "Ready",
    "Question",
    "Report",
    "SCHEMA_VERSION",
    "SourceSpan",
    "SymptomCue",
    "SymptomMatch",
    "TARGET_KEYS",
    "Target",
    "TargetInfo",
    "TargetRef",
    "call_whole",
]
