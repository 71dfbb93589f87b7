"""Every bad input gives a clear message and exit 2 (or, for user code failing inside a probe, an
`error` probe result in a report that is still produced): never a traceback, never a hang, nothing
written beside the user's files."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import default_sigint, report_of

BAD = Path(__file__).parent / "bad_inputs"

# (file, extra args, needle in stderr)
TARGET_ERRORS = [
    ("target_syntax_error.py", [], "syntax error in the target", ":4"),
    ("target_import_error.py", [], "imports 'definitely_not_installed_pkg'", ":2"),
    ("target_raises.py", [], "make_target() raised FileNotFoundError", ":6"),
    ("target_no_function.py", [], "did you mean 'make_targets'?", "target_no_function.py"),
    ("target_returns_list.py", [], "returned list, not a dict", "target_returns_list.py"),
    ("target_missing_batch.py", [], "returned no 'batch'", "target_missing_batch.py"),
    ("target_model_not_module.py", [], "model must be a torch.nn.Module", "target_model_not_module.py"),
    ("target_batch_not_pair.py", [], "batch must be a pair", "target_batch_not_pair.py"),
    ("target_unknown_key.py", [], "did you mean 'loss_fn'?", "target_unknown_key.py"),
    ("target_forward_raises.py", [], "model forward raised RuntimeError", "target_forward_raises.py:11"),
    ("target_loss_not_scalar.py", [], "not a scalar tensor", "target_loss_not_scalar.py:5"),
    ("target_inputs_not_tensors.py", [], "inputs must be a tensor, a tuple of tensors", "target_inputs_not_tensors.py"),
    ("target_batch_axis_wrong.py", [], "batch_axis: axis 2 does not exist", "target_batch_axis_wrong.py"),
    ("target_optimizer_wrong_kind.py", [], "optimizer returned dict, not a torch.optim.Optimizer", ":5"),
    ("target_call_model_raises.py", [], "call_model raised", "target_call_model_raises.py:6"),
    ("target_hangs_at_import.py", ["--load-timeout", "3"], "took longer than 3s", "target_hangs_at_import.py"),
]


def _copy(tmp_path: Path, name: str) -> Path:
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    shutil.copy(BAD / name, project / name)
    return project / name


def _listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.mark.parametrize("name,extra,needle,where", TARGET_ERRORS)
def test_bad_target(run_cli, tmp_path, name, extra, needle, where):
    target = _copy(tmp_path, name)
    before = _listing(target.parent)
    started = time.monotonic()
    proc = run_cli("ask", "something is off", "--target", str(target), "--format", "json", *extra)
    assert proc.returncode == 2, proc.stderr
    assert needle in proc.stderr
    assert "where: " in proc.stderr and where in proc.stderr
    assert "fix: " in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert _listing(target.parent) == before
    assert time.monotonic() - started < 60


# User code that breaks inside a probe: the report is still produced, that probe says `error`,
# and (run first) the probes after it still run in a fresh worker.
PROBE_FAILURES = [
    ("target_hang_in_step.py", ["--probe-timeout", "4"], "timed out after 4s"),
    ("target_memory_hog.py", ["--max-memory", "2G"], "ran out of memory"),
    ("target_crash.py", [], "the worker died: exited with code 3"),
]


@pytest.mark.parametrize("name,extra,needle", PROBE_FAILURES)
def test_failing_probe_becomes_an_error_result(run_cli, tmp_path, name, extra, needle):
    target = _copy(tmp_path, name)
    before = _listing(target.parent)
    proc = run_cli(
        "ask",
        "loss looks odd",
        "--target",
        str(target),
        "--format",
        "json",
        "--probe",
        "overfit_one_batch",
        "--probe",
        "shape_audit",
        *extra,
        timeout=120,
    )
    data = report_of(proc)
    first, second = data["probes"]
    assert first["name"] == "overfit_one_batch" and first["status"] == "error" and needle in first["summary"]
    assert second["name"] == "shape_audit" and second["status"] == "passed"
    assert any("did not finish" in n for n in data["notes"])
    assert "Traceback" not in proc.stderr
    assert _listing(target.parent) == before


def test_prints_in_user_code_do_not_corrupt_the_protocol(run_cli, tmp_path):
    target = _copy(tmp_path, "target_prints.py")
    proc = run_cli("ask", "check it", "--target", str(target), "--format", "json", "--quiet")
    assert report_of(proc)["cause_id"] == "none"


def test_nan_loss_at_step_zero_is_a_finding_not_an_error(run_cli, tmp_path):
    target = _copy(tmp_path, "target_nan_loss.py")
    data = report_of(run_cli("ask", "training fails", "--target", str(target), "--format", "json"))
    assert any("before any step" in n for n in data["notes"])
    trace = next(p for p in data["probes"] if p["name"] == "nonfinite_trace")
    assert trace["outcomes"][0] == "nonfinite_forward" and "log" in trace["summary"]
    assert data["cause_id"] == "numeric.unstable"


@pytest.mark.parametrize(
    "file,needle",
    [
        ("diff_not_unified.txt", "does not look like a unified diff"),
        ("diff_binary.bin", "binary file"),
    ],
)
def test_bad_diff(run_cli, file, needle):
    proc = run_cli("ask", "x", "--diff", str(BAD / file))
    assert proc.returncode == 2 and needle in proc.stderr and "Traceback" not in proc.stderr


def test_non_utf8_diff_is_read_with_a_note(run_cli):
    data = report_of(run_cli("ask", "x", "--diff", str(BAD / "diff_non_utf8.diff"), "--format", "json"))
    assert any("not valid UTF-8" in n for n in data["notes"])


def test_huge_diff_is_capped_with_a_note(run_cli, tmp_path):
    body = "".join(f"+x{i} = {i}\n" for i in range(30_000))
    big = tmp_path / "big.diff"
    big.write_text(f"--- a/f.py\n+++ b/f.py\n@@ -1,1 +1,30000 @@\n{body}")
    data = report_of(run_cli("ask", "x", "--diff", str(big), "--format", "json"))
    assert any("only the first" in n for n in data["notes"])


@pytest.mark.parametrize("file", ["symptom_empty.txt", "symptom_blank.txt"])
def test_empty_symptom(run_cli, file):
    proc = run_cli("ask", "--symptom-file", str(BAD / file))
    assert proc.returncode == 2 and "symptom is empty" in proc.stderr and "describe what you see" in proc.stderr


def test_megabytes_of_logs_keep_the_tail(run_cli, tmp_path):
    log = tmp_path / "log.txt"
    lines = [f"step {i} loss 0.{i % 97:02d}" for i in range(200_000)]
    log.write_text("My model is broken, here is the log:\n" + "\n".join(lines) + "\nloss is nan at step 199999\n")
    data = report_of(run_cli("ask", "--symptom-file", str(log), "--format", "json"))
    assert any("characters from the middle were cut" in n for n in data["notes"])
    assert data["cause_id"] in {"numeric.unstable", "optim.lr_too_high", "grad.exploding"}


@pytest.mark.parametrize(
    "args,needle",
    [
        (["ask", "x", "--diff", "a.diff", "--git"], "not allowed with argument"),
        (["ask", "x", "--probe", "dependency", "--all-probes"], "not allowed with argument"),
        (["ask", "x", "--timeout", "-1"], "must be positive"),
        (["ask", "words", "--symptom-file", "s.txt"], "not both"),
        (["nonsense-command"], "invalid choice"),
    ],
)
def test_bad_flags(run_cli, tmp_path, args, needle):
    (tmp_path / "s.txt").write_text("x")
    (tmp_path / "a.diff").write_text("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n")
    proc = run_cli(*args)
    assert proc.returncode == 2 and needle in proc.stderr and "Traceback" not in proc.stderr


def test_ctrl_c_writes_a_partial_report(tmp_path):
    target = _copy(tmp_path, "target_slow_step.py")
    out = tmp_path / "report.json"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "debug_agent",
            "ask",
            "slow",
            "--target",
            str(target),
            "--format",
            "json",
            "-o",
            str(out),
            "--probe",
            "shape_audit",
            "--probe",
            "overfit_one_batch",
            "--probe",
            "dependency",
        ],
        stderr=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        cwd=tmp_path,
        preexec_fn=default_sigint,
    )
    seen = ""
    deadline = time.monotonic() + 60
    while "shape_audit" not in seen and time.monotonic() < deadline:
        seen += proc.stderr.readline()
    time.sleep(1.0)  # now inside the slow overfit probe
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    data = json.loads(out.read_text())
    assert data["partial"] is True
    assert [p["name"] for p in data["probes"]] == ["shape_audit"]
    assert "Traceback" not in err
