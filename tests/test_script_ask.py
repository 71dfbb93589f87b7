"""`debug-agent ask -- python train.py`: real training scripts run end to end under observation.

The scripts live in tests/scripts/ and are copied into an empty folder per test (they run in the
user's working directory). Planted bugs must come back as the right cause first, citing the script's
own line; the healthy runs come back clean; bad scripts give a clear message, exit code 2 and leave no
process behind.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest

from debug_agent.errors import UsageError
from debug_agent.intake.command import parse
from debug_agent.schemas import Report

from .conftest import report_of

SCRIPTS = Path(__file__).resolve().parent / "scripts"


def _copy(tmp_path: Path, name: str) -> Path:
    shutil.copy(SCRIPTS / name, tmp_path / name)
    return tmp_path / name


def _ask(run_cli, tmp_path: Path, script: str, *args: str, steps: int = 6, timeout: int = 60) -> object:
    _copy(tmp_path, script)
    return run_cli(
        "ask",
        "-q",
        "--format",
        "json",
        "--steps",
        str(steps),
        "--timeout",
        str(timeout),
        "--budget",
        "15",
        "--",
        "python",
        script,
        *args,
    )


# -- command parsing (pure) ------------------------------------------------------------------------


def test_command_forms(tmp_path):
    (tmp_path / "train.py").write_text("")
    c = parse(["python", "-u", "train.py", "--lr", "3"], str(tmp_path))
    assert (c.kind, c.path, c.args, c.sys_argv) == ("script", "train.py", ["--lr", "3"], ["train.py", "--lr", "3"])
    m = parse(["python3", "-m", "pkg.train", "--x"], str(tmp_path))
    assert (m.kind, m.module, m.args) == ("module", "pkg.train", ["--x"])
    t = parse(["torchrun", "--nproc-per-node=1", "--standalone", "train.py", "a"], str(tmp_path))
    assert (t.launcher, t.path, t.args) == ("torchrun", "train.py", ["a"])
    assert parse(["train.py"], str(tmp_path)).path == "train.py"


@pytest.mark.parametrize(
    "argv, words",
    [
        ([], "nothing after"),
        (["python", "missing.py"], "does not exist"),
        (["torchrun", "--nproc-per-node", "2", "train.py"], "single process"),
        (["bash", "run.sh"], "cannot run"),
        (["python", "-c", "print(1)"], "not a training script"),
    ],
)
def test_bad_commands_are_usage_errors(tmp_path, argv, words):
    (tmp_path / "train.py").write_text("")
    with pytest.raises(UsageError, match=words):
        parse(argv, str(tmp_path))


# -- end to end: planted bugs and healthy loops ----------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "bug, cause, cites",
    [
        ("no_zero_grad", "optim.missing_zero_grad", "loss.backward()"),
        ("eval_train_mode", "mode.train_at_eval", "model(x)"),
        ("reshape", "layout.reshape_permute", None),
        ("shuffled_labels", "data.label_misalignment", None),
        ("frozen_head", "optim.params_not_updated", None),
    ],
)
def test_plain_loop_bug_is_found(run_cli, tmp_path, bug, cause, cites):
    report = Report.model_validate(report_of(_ask(run_cli, tmp_path, "plain_loop.py", "--bug", bug)))
    assert report.cause_id == cause, (report.cause_id, report.evidence)
    assert report.meta["command"] == f"python plain_loop.py --bug {bug}"
    if cites:
        lines = [o for o in report.observations if o.source.startswith("script:plain_loop.py:")]
        assert any(cites in o.text for o in lines), report.evidence
        line = int(lines[0].source.rsplit(":", 1)[1])
        assert cites in (tmp_path / "plain_loop.py").read_text().splitlines()[line - 1]


@pytest.mark.slow
def test_plain_loop_healthy_is_clean(run_cli, tmp_path):
    report = Report.model_validate(report_of(_ask(run_cli, tmp_path, "plain_loop.py")))
    assert report.verdict == "healthy", report.evidence
    obs = next(p for p in report.probes if p.name == "train_observation")
    assert obs.status == "passed" and "eval_mode_ok" in obs.outcomes  # the evaluation pass was observed


@pytest.mark.slow
@pytest.mark.parametrize("bug, verdict", [("none", "healthy"), ("no_zero_grad", "optim.missing_zero_grad")])
def test_hand_written_update_loop(run_cli, tmp_path, bug, verdict):
    report = Report.model_validate(report_of(_ask(run_cli, tmp_path, "manual_loop.py", "--bug", bug)))
    assert (report.verdict if bug == "none" else report.cause_id) == verdict, report.evidence
    obs = next(p for p in report.probes if p.name == "train_observation")
    assert obs.measurements["step_kind"] == "manual"


# -- bad scripts -----------------------------------------------------------------------------------


def _gone(pgid: int) -> bool:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def test_crash_before_first_step(run_cli, tmp_path):
    proc = _ask(run_cli, tmp_path, "crash_early.py")
    assert proc.returncode == 2
    assert "FileNotFoundError" in proc.stderr and "crash_early.py:8" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_no_step_within_timeout(run_cli, tmp_path):
    proc = _ask(run_cli, tmp_path, "never_steps.py", timeout=5)
    assert proc.returncode == 2
    assert re.search(r"took no training step within \d+ s", proc.stderr), proc.stderr
    assert "Traceback" not in proc.stderr


def test_sys_exit_before_and_after_steps(run_cli, tmp_path):
    early = _ask(run_cli, tmp_path, "exits_early.py")
    assert early.returncode == 2 and "exited with code 3" in early.stderr and "Traceback" not in early.stderr
    late = report_of(_ask(run_cli, tmp_path, "exits_early.py", "--late"))
    assert late["meta"]["observed_run"]["ended"] == "exit"
    assert late["meta"]["observed_run"]["steps"] == 3


@pytest.mark.slow
def test_stdin_is_empty_and_workers_are_reaped(run_cli, tmp_path):
    report_of(_ask(run_cli, tmp_path, "reads_stdin.py"))  # would block forever on an open stdin
    data = report_of(_ask(run_cli, tmp_path, "spawns.py"))
    assert data["meta"]["observed_run"]["ended"] == "step_limit"
    helper, pgid = (int(v) for v in (tmp_path / "spawned.pid").read_text().split())
    assert _gone(pgid), "the script's process group outlived the run"
    with pytest.raises(ProcessLookupError):
        os.kill(helper, 0)


@pytest.mark.slow
def test_module_and_torchrun_forms(run_cli, tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    shutil.copy(SCRIPTS / "manual_loop.py", pkg / "train.py")
    common = ("ask", "-q", "--format", "json", "--steps", "4", "--budget", "5", "--probe", "train_observation")
    data = report_of(run_cli(*common, "--", "python", "-m", "pkg.train", "--bug", "no_zero_grad"))
    assert data["cause_id"] == "optim.missing_zero_grad"
    assert any(o["source"].startswith("script:pkg/train.py:") for o in data["observations"]), data["observations"]
    data = report_of(run_cli(*common, "--", "torchrun", "--nproc-per-node=1", "pkg/train.py"))
    assert data["meta"]["observed_run"]["steps"] == 4 and data["verdict"] == "healthy"
    assert any("torchrun replaced" in n for n in data["notes"])


@pytest.mark.slow
def test_torchrun_with_a_process_group_and_ddp(run_cli, tmp_path):
    """A torchrun script that calls init_process_group and wraps its model in DistributedDataParallel runs
    as one process; the captured model is the wrapped one (the wrapper's process group is gone by then)."""
    _copy(tmp_path, "ddp_loop.py")
    common = ("ask", "-q", "--format", "json", "--steps", "4", "--budget", "10", "--probe", "train_observation")
    argv = ("--", "torchrun", "--nproc-per-node=1", "ddp_loop.py", "--bug", "no_zero_grad")
    data = report_of(run_cli(*common, "--probe", "init_loss", *argv))
    assert data["cause_id"] == "optim.missing_zero_grad"
    init = next(p for p in data["probes"] if p["name"] == "init_loss")
    assert init["status"] == "passed", init  # a model-level probe ran on the unwrapped snapshot
