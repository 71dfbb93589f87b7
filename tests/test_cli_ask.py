"""`debug-agent ask` end to end, through the real CLI in a subprocess."""

from __future__ import annotations

import json
import shutil

import pytest

from debug_agent.schemas import Report

from .conftest import EXAMPLES, report_of


def test_reshape_case_end_to_end(run_cli, tmp_path):
    ex = EXAMPLES / "reshape_permute"
    proc = run_cli(
        "ask",
        "--symptom-file",
        str(ex / "symptom.txt"),
        "--diff",
        str(ex / "change.diff"),
        "--target",
        str(ex / "target.py"),
        "--format",
        "json",
        "--offline",
    )
    data = report_of(proc)
    report = Report.model_validate(data)
    assert report.cause_id == "layout.reshape_permute"
    assert report.confidence >= 0.8
    dep = [o for o in report.observations if o.source == "probe:dependency"]
    assert any("input rows" in o.text and any(ch.isdigit() for ch in o.text) for o in dep), dep
    assert any(o.source == "diff:target.py:19" and "reshape(T, B, C)" in o.text for o in report.observations)
    assert "target.py:19" in report.first_action
    assert {p.name for p in report.probes} >= {"dependency", "shape_audit"}
    assert proc.stderr.count("Traceback") == 0


def test_healthy_twin_gives_no_layout_finding(run_cli):
    data = report_of(run_cli("ask", "--example", "sequence_healthy", "--format", "json"))
    assert data["cause_id"] == "none"
    layout = [h for h in data["hypotheses"] if h["cause_id"] == "layout.reshape_permute"]
    assert all(h["status"] == "contradicted" for h in layout)


def test_broadcast_regression_names_op_and_shapes(run_cli):
    data = report_of(run_cli("ask", "--example", "broadcast_regression", "--format", "json"))
    assert data["cause_id"] == "shape.broadcast"
    text = " ".join(data["evidence"])
    assert "(64, 1) vs (64,)" in text and "(64, 64)" in text and "sub" in text
    assert "pred - y" in text


def test_symptom_only_ranks_from_words(run_cli):
    proc = run_cli("ask", "my loss becomes NaN after a few steps, it explodes", "--format", "json")
    data = report_of(proc)
    assert data["cause_id"] in {"optim.lr_too_high", "numeric.unstable", "grad.exploding"}
    assert any("no --target" in n for n in data["notes"])
    assert all(h["status"] == "untested" for h in data["hypotheses"])


def test_symptom_from_stdin(run_cli):
    data = report_of(run_cli("ask", "-", "--format", "json", input="validation accuracy is noisy between runs"))
    assert data["cause_id"]


def test_markdown_output(run_cli):
    proc = run_cli("ask", "--example", "broadcast_regression", "--format", "md")
    assert proc.returncode == 0
    md = proc.stdout
    assert md.startswith("## debug-agent: ")
    assert "`shape.broadcast`" in md.splitlines()[0]
    assert "### Evidence" in md and "### Probes" in md
    embedded = md.split(
        "```json",
    )[-1].split("```")[0]
    assert Report.model_validate_json(embedded).cause_id == "shape.broadcast"


def test_text_output_goes_to_stdout_progress_to_stderr(run_cli):
    proc = run_cli("ask", "--example", "regression_healthy")
    assert proc.returncode == 0
    assert "No defect found" in proc.stdout
    assert "running" in proc.stderr and "No defect found" not in proc.stderr
    assert "\x1b[" not in proc.stdout + proc.stderr, "NO_COLOR and a non-terminal mean plain text"


def test_output_file_and_nothing_written_to_target_folder(run_cli, tmp_path):
    project = tmp_path / "project"
    shutil.copytree(EXAMPLES / "broadcast_regression", project)
    before = sorted(p.name for p in project.rglob("*"))
    out = tmp_path / "report.json"
    proc = run_cli(
        "ask",
        "--symptom-file",
        "project/symptom.txt",
        "--target",
        "project/target.py",
        "--format",
        "json",
        "-o",
        str(out),
        "--quiet",
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "" and proc.stderr == ""
    assert json.loads(out.read_text())["cause_id"] == "shape.broadcast"
    assert sorted(p.name for p in project.rglob("*")) == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".report")] == []


def test_fail_on_finding_exit_code(run_cli):
    assert (
        run_cli(
            "ask", "--example", "broadcast_regression", "--format", "json", "--fail-on-finding", "--quiet"
        ).returncode
        == 1
    )
    assert (
        run_cli("ask", "--example", "regression_healthy", "--format", "json", "--fail-on-finding", "--quiet").returncode
        == 0
    )


def test_forced_probe(run_cli):
    data = report_of(run_cli("ask", "--example", "reshape_permute", "--probe", "shape_audit", "--format", "json"))
    assert [p["name"] for p in data["probes"]] == ["shape_audit"]


@pytest.mark.parametrize(
    "args,needle",
    [
        (["ask", "x", "--target", "missing.py"], "does not exist"),
        (["ask", "", "--format", "json"], "symptom is empty"),
        (["ask", "x", "--example", "nope"], "no bundled example"),
        (["ask", "x", "--diff", "notes.txt"], "unified diff"),
        (["ask", "--example", "regression_healthy", "--probe", "nope"], "unknown probe"),
        (["ask", "x", "--max-memory", "lots"], "not a size"),
    ],
)
def test_bad_input_is_a_clear_error(run_cli, tmp_path, args, needle):
    (tmp_path / "notes.txt").write_text("not a diff at all\n")
    proc = run_cli(*args)
    assert proc.returncode == 2, proc.stderr
    assert needle in proc.stderr
    assert "Traceback" not in proc.stderr


def test_examples_command_lists_bundled_examples(run_cli):
    proc = run_cli("examples")
    assert proc.returncode == 0
    assert "reshape_permute" in proc.stdout and "layout.reshape_permute" in proc.stdout


def test_symptom_option_abbreviations_and_text_given_as_a_file(run_cli):
    """`--symptom TEXT` is the positional SYMPTOM; an abbreviated option is refused, not bound to another
    option; words passed where a file name belongs get a clear error (exit 2), not a traceback."""
    words = "my loss becomes NaN after a few steps, it explodes"
    data = report_of(run_cli("ask", "--symptom", words, "--format", "json"))
    assert any(o["source"] == "symptom" and "NaN after a few steps" in o["text"] for o in data["observations"])
    twice = run_cli("ask", words, "--symptom", words)
    assert twice.returncode == 2 and "not both" in twice.stderr
    abbrev = run_cli("ask", "--sympt", words)
    assert abbrev.returncode == 2 and "unrecognized arguments: --sympt" in abbrev.stderr
    long_words = "the validation accuracy drops whenever I change the batch size, " * 6
    as_file = run_cli("ask", "--symptom-file", long_words)
    assert as_file.returncode == 2 and "Traceback" not in as_file.stderr and "--symptom TEXT" in as_file.stderr
