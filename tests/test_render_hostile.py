"""`render` on hostile files: clear exit 2 or safe output; Markdown reports round-trip whatever they hold."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from debug_agent.report.render import JSON_OPEN, read_report, to_markdown
from debug_agent.schemas import Report

from .conftest import report_of


@pytest.fixture(scope="module")
def report_json(tmp_path_factory) -> str:
    """A real offline report whose symptom holds a fenced log, backticks and escape sequences."""
    import subprocess
    import sys

    d = tmp_path_factory.mktemp("render")
    symptom = (
        "Log: ```` loss 0.9 ````` \x1b[31mred\x1b[0m <script>alert(1)</script> and my regression model "
        "predicts almost the same value for every input.\n"
    )
    (d / "s.txt").write_text(symptom)
    proc = subprocess.run(
        [sys.executable, "-m", "debug_agent", "ask", "--symptom-file", "s.txt", "--format", "json", "--offline"],
        capture_output=True,
        text=True,
        cwd=d,
        stdin=subprocess.DEVNULL,
    )
    assert "`````" in json.dumps(report_of(proc)["evidence"])
    return proc.stdout


def _write(tmp_path: Path, name: str, data: bytes | str) -> Path:
    p = tmp_path / name
    p.write_bytes(data if isinstance(data, bytes) else data.encode())
    return p


def test_markdown_round_trips_fences_and_escapes(report_json, tmp_path):
    report = Report.model_validate_json(report_json)
    report = report.model_copy(update={"first_action": "run ```` this ``` and \x1b[2J", "root_cause": "a\x1b]0;x\x07b"})
    md = to_markdown(report)
    assert "\x1b" not in md and "\x07" not in md
    assert "<script>" not in md.split(JSON_OPEN)[0]  # inside the JSON fence it is code, not HTML
    back = read_report(str(_write(tmp_path, "r.md", md)))
    assert back.cause_id == report.cause_id and back.confidence == report.confidence
    assert back.first_action == "run ```` this ``` and "


@pytest.mark.parametrize(
    ("name", "make", "needle"),
    [
        ("huge.json", lambda r: "{" + " " * 17_000_000 + "}", "MB"),
        ("deep.json", lambda r: r[:-2] + ', "meta": ' + "[" * 5000 + "]" * 5000 + "}", "deep"),
        ("bad.json", lambda r: b"{\xff\xfe" + r.encode(), "not UTF-8"),
        ("nan.json", lambda r: json.dumps(json.loads(r) | {"confidence": "NaN"}).replace('"NaN"', "NaN"), "valid"),
        ("trunc.md", lambda r: "<details><summary>Full report (JSON)</summary>\n\n```json\n" + r[:100], "valid"),
        ("plain.txt", lambda r: "hello", "neither"),
    ],
)
def test_hostile_files_exit_2(name, make, needle, report_json, tmp_path, run_cli):
    path = _write(tmp_path, name, make(report_json))
    proc = run_cli("render", str(path))
    assert proc.returncode == 2, proc.stderr
    assert needle in proc.stderr and "Traceback" not in proc.stderr


def test_control_characters_are_stripped_before_the_terminal(report_json, tmp_path, run_cli):
    data = json.loads(report_json)
    data["root_cause"] = "evil \x1b[2J\x1b]0;title\x07 text \u202e"
    data["notes"] = ["\x1b[31m", "ok"]
    path = _write(tmp_path, "ctl.json", json.dumps(data))
    for fmt in ("text", "md"):
        proc = run_cli("render", str(path), "--format", fmt)
        assert proc.returncode == 0, proc.stderr
        assert "\x1b" not in proc.stdout and "\x07" not in proc.stdout and "\u202e" not in proc.stdout
        assert "evil" in proc.stdout
