"""The terminal report at 80 columns: lists instead of squeezed tables, no word split into a narrow column."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from rich.console import Console

from debug_agent.report import render
from debug_agent.schemas import Observation, Report
from tests.test_reports import fixed_report

LONG = (
    "output row 8 has non-zero gradient with respect to input rows 0, 1, 2, 3, 4, 5, 6, 7 of the same batch "
    "(largest cross/self gradient ratio 0.473); the reshape at train.py:42 interleaves examples"
)


def narrow_report() -> Report:
    base = fixed_report()
    extra = [
        Observation(kind="observation", source="source:train.py:42", text=LONG),
        Observation(kind="observation", source="probe:train_observation", text="loss per step " + "falls " * 30),
    ]
    obs = base.observations + extra
    return base.model_copy(update={"observations": obs, "evidence": [o.as_evidence() for o in obs]})


def _normal(text: str) -> str:
    return " ".join(text.split())


def _items(out: str, section: str, until: str) -> list[list[str]]:
    """The list entries of one section: each entry's lines ('  • head' then indented body lines)."""
    lines = out.splitlines()
    start = lines.index(section) + 1
    items: list[list[str]] = []
    for line in lines[start:]:
        if line.strip() == until:
            break
        if line.startswith("  • "):
            items.append([line])
        elif items and line.startswith("    "):
            items[-1].append(line)
    return items


def check_readable(out: str, report: Report, width: int) -> None:
    assert all(len(line) <= width for line in out.splitlines())
    items = _items(out, "Evidence", "Hypotheses")
    assert len(items) == len(report.observations)
    for item, obs in zip(items, report.observations, strict=True):
        body = [line.strip() for line in item[1:]]
        assert _normal(" ".join(body)) == _normal(obs.text)  # every word whole, in order
        # full-width lines: only an entry's last line may be short (no 1-5 character text column)
        assert all(len(line) > width // 2 for line in body[:-1]), body
    assert "│ text" not in out and "┃ text" not in out  # no three-column table


def test_print_text_at_80_columns_uses_lists() -> None:
    report = narrow_report()
    buf = io.StringIO()
    render.print_text(report, Console(file=buf, width=80, no_color=True, highlight=False))
    check_readable(buf.getvalue(), report, 80)
    for h in report.hypotheses:
        assert f"{h.title} ({h.cause_id})" in buf.getvalue()
    for p in report.probes:
        assert p.name in buf.getvalue()


def test_print_text_wide_keeps_tables() -> None:
    buf = io.StringIO()
    render.print_text(narrow_report(), Console(file=buf, width=140, no_color=True, highlight=False))
    assert "Evidence" in buf.getvalue() and "┃ kind" in buf.getvalue()


def test_cli_render_honours_columns(tmp_path: Path) -> None:
    """A real `debug-agent render` in a terminal of COLUMNS=80."""
    report = narrow_report()
    saved = tmp_path / "report.json"
    saved.write_text(render.to_json(report), encoding="utf-8")
    env = {**os.environ, "COLUMNS": "80", "TERM": "dumb", "NO_COLOR": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "debug_agent", "render", str(saved)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    check_readable(proc.stdout, report, 80)
