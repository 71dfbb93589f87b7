"""The runner: one child process, time limits, restarts, clean-up."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from debug_agent.errors import TargetError
from debug_agent.isolation.runner import Limits, Runner
from debug_agent.schemas import ProbeRequest, TargetRef

BAD = Path(__file__).parent / "bad_inputs"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_ready_reports_target_and_registry():
    with Runner(TargetRef(path=str(EXAMPLES / "regression_healthy" / "target.py"))) as r:
        ready = r.start()
        assert ready.info.model_class == "Regressor" and ready.info.batch_size == 64
        assert ready.info.input_shapes == [[64, 8]] and ready.info.output_shape == [64]
        assert {"dependency", "shape_audit", "overfit_one_batch"} <= {p.name for p in ready.probes}
        assert ready.unit_seconds and ready.unit_seconds > 0
        tmp = r._tmp
        assert tmp and os.path.isdir(tmp)
    assert not os.path.exists(tmp), "temporary folder removed on close"


def test_timeout_restarts_worker_for_the_next_probe():
    with Runner(TargetRef(path=str(BAD / "target_hang_in_step.py")), limits=Limits(probe_s=3)) as r:
        r.start()
        hung = r.run(ProbeRequest(name="overfit_one_batch"))
        assert hung.status == "error" and "timed out" in hung.summary
        ok = r.run(ProbeRequest(name="shape_audit"))
        assert ok.status == "passed" and r.restarts == 1


def test_total_time_limit_skips_remaining_probes():
    with Runner(TargetRef(path=str(BAD / "target_hang_in_step.py")), limits=Limits(probe_s=30, total_s=6)) as r:
        r.start()
        r.run(ProbeRequest(name="overfit_one_batch"))
        late = r.run(ProbeRequest(name="shape_audit"))
        assert late.status == "error" and "time limit" in late.summary


def test_load_error_is_typed():
    with (
        Runner(TargetRef(path=str(BAD / "target_returns_list.py"))) as r,
        pytest.raises(TargetError, match="not a dict"),
    ):
        r.start()
