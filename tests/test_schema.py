"""The report schema: the reference format validates as is; what we emit round-trips."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from debug_agent.schemas import Hypothesis, Observation, Report

# The reference report lives in the shared seeds beside the checkout (CI lays shared/ there too);
# it is read in place, never copied into the project.
REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "seeds" / "reference-report.json"


@pytest.fixture
def reference() -> dict:
    if not REFERENCE.exists():
        pytest.skip(f"reference report not found at {REFERENCE}")
    return json.loads(REFERENCE.read_text())


def test_reference_report_validates_as_is(reference):
    report = Report.model_validate_json(REFERENCE.read_text())
    assert report.confidence == 0.98
    assert len(report.evidence) == 6
    assert report.cause_id is None  # the reference predates cause ids


def test_evidence_must_be_prefixed(reference):
    data = reference
    data["evidence"] = ["rows leak"]
    with pytest.raises(ValidationError, match="Observation:"):
        Report.model_validate(data)


def test_confidence_bounded(reference):
    data = reference
    data["confidence"] = 1.2
    with pytest.raises(ValidationError):
        Report.model_validate(data)


def test_credences_may_not_exceed_one(reference):
    data = reference
    data["hypotheses"] = [
        Hypothesis(cause_id=c, title=c, credence=0.6, status="untested").model_dump() for c in ("a.b", "c.d")
    ]
    with pytest.raises(ValidationError, match="sum to"):
        Report.model_validate(data)


def test_observations_must_match_evidence(reference):
    data = reference
    data["observations"] = [{"kind": "observation", "source": "symptom", "text": "something else"}]
    with pytest.raises(ValidationError, match="observations"):
        Report.model_validate(data)


@pytest.mark.parametrize(
    "source",
    ["symptom", "diff:model.py:12", "source:a/b.py:3", "probe:dependency", "catalog:layout.reshape_permute", "engine"],
)
def test_sources_accepted(source):
    Observation(kind="observation", source=source, text="x")


@pytest.mark.parametrize("source", ["", "diff:model.py", "probe:", "web", "probe:Bad Name"])
def test_sources_rejected(source):
    with pytest.raises(ValidationError):
        Observation(kind="observation", source=source, text="x")


texts = st.text(min_size=1, max_size=40).filter(lambda s: s.strip() != "")
obs = st.builds(
    Observation,
    kind=st.sampled_from(["observation", "inference"]),
    source=st.sampled_from(["symptom", "probe:dependency", "diff:a.py:1", "engine"]),
    text=texts,
)


@settings(max_examples=60, deadline=None)
@given(observations=st.lists(obs, max_size=6), conf=st.floats(0, 1), fields=st.lists(texts, max_size=3))
def test_round_trip(observations, conf, fields):
    report = Report(
        root_cause="x",
        confidence=conf,
        evidence=[o.as_evidence() for o in observations],
        competing_hypotheses=fields,
        first_action="y",
        prediction_if_true="t",
        prediction_if_false="f",
        immediate_changes=fields,
        fallback_logic=[],
        cause_id="none",
        observations=observations,
    )
    again = Report.model_validate_json(report.model_dump_json())
    assert again == report


def test_schema_command_prints_json_schema(run_cli):
    proc = run_cli("schema")
    assert proc.returncode == 0
    schema = json.loads(proc.stdout)
    for field in (
        "root_cause",
        "confidence",
        "evidence",
        "competing_hypotheses",
        "first_action",
        "prediction_if_true",
        "prediction_if_false",
        "immediate_changes",
        "fallback_logic",
        "schema_version",
        "cause_id",
        "hypotheses",
        "observations",
        "probes",
    ):
        assert field in schema["properties"]
