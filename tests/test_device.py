"""--device: CPU by default; on a machine with CUDA the probes give the same outcomes there."""

from __future__ import annotations

import runpy

import pytest
import torch

import debug_agent.probes as P
from debug_agent.intake import bundled
from debug_agent.isolation import probe_registry
from debug_agent.isolation.target import to_device
from debug_agent.schemas import Target

from .conftest import report_of


def test_cuda_request_without_cuda_is_a_clear_error(run_cli):
    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    proc = run_cli("ask", "--example", "regression_healthy", "--device", "cuda")
    assert proc.returncode == 2 and "no CUDA device" in proc.stderr


def test_explicit_cpu_device_is_the_default_path(run_cli):
    assert (
        report_of(run_cli("ask", "--example", "regression_healthy", "--device", "cpu", "--format", "json", "--quiet"))[
            "cause_id"
        ]
        == "none"
    )


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
@pytest.mark.parametrize(
    "name",
    ["reshape_permute", "broadcast_regression", "causal_leak", "cnn_healthy", "missing_zero_grad", "custom_backward"],
)
def test_cuda_outcomes_match_cpu(name):
    probe_registry()
    path = str(bundled.get(name).target)
    cpu = Target.model_validate(runpy.run_path(path)["make_target"]())
    gpu = to_device(Target.model_validate(runpy.run_path(path)["make_target"]()), "cuda")
    for probe in P.REGISTRY:
        a = P.execute(probe, cpu, P.ProbeContext(seed=0, budget_s=60))
        b = P.execute(probe, gpu, P.ProbeContext(seed=0, budget_s=60))
        assert a.status == b.status and set(a.outcomes) == set(b.outcomes), (probe, a.summary, b.summary)
