"""Render a Report as JSON, Markdown or a rich terminal view, and read one back. Rendering never computes.

Whatever a report holds (pasted logs with fences, LLM wording, escape sequences) renders safely:
control characters are stripped from Markdown and terminal output, raw HTML is escaped, and every
fence is longer than any backtick run inside it, so `render` reads back every Markdown report it
wrote. Reading checks size and nesting depth before parsing.

May import: schemas, errors.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from debug_agent.schemas import ProbeResult, Report

GITHUB_LIMIT = 65_536  # characters in one GitHub issue comment
MAX_REPORT_BYTES = 16_000_000
MAX_DEPTH = 64
CONTROL = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _plain(value: Any, mark: str) -> Any:
    if isinstance(value, str):
        return CONTROL.sub(mark, value)
    if isinstance(value, dict):
        return {k: _plain(v, mark) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v, mark) for v in value]
    return value


def safe(report: Report) -> Report:
    """The report with control characters and escape sequences removed from every string (for display)."""
    from pydantic import ValidationError

    data = report.model_dump()
    try:
        return Report.model_validate(_plain(data, ""))
    except ValidationError:  # a text that was nothing but control characters: show where they were
        return Report.model_validate(_plain(data, "?"))


def fence(text: str, info: str = "") -> list[str]:
    """`text` in a code fence longer than any backtick run inside it."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    ticks = "`" * max(3, longest + 1)
    return [ticks + info, text, ticks]


def _inline(text: str) -> str:
    """Free text on one Markdown line: whitespace collapsed, raw HTML shown as text."""
    return " ".join(str(text).split()).replace("<", "&lt;").replace(">", "&gt;")


def to_json(report: Report) -> str:
    return report.model_dump_json(indent=2)


def verdict(report: Report) -> str:
    if not report.found_defect:
        if report.verdict == "not_bug":
            title = report.hypotheses[0].title if report.hypotheses else report.cause_id
            return f"Not a code defect: {title} — `{report.cause_id}` (confidence {report.confidence:.2f})"
        return f"No defect found (confidence {report.confidence:.2f})"
    title = report.hypotheses[0].title if report.hypotheses else report.cause_id or "unknown cause"
    return f"{title} — `{report.cause_id}` (confidence {report.confidence:.2f})"


SPARK = "▁▂▃▄▅▆▇█"


def key_measurement(r: ProbeResult) -> str:
    """The probe's own headline figure (declared with the probe), for tables."""
    if r.headline and r.measurements.get(r.headline) is not None:
        return f"{r.headline}={r.measurements[r.headline]}"
    return ""


def sparkline(values: list[float], width: int = 24) -> str:
    """A small unicode picture of a curve (log-scaled when it spans orders of magnitude)."""
    import math

    vals = [v for v in values if isinstance(v, (int, float)) and math.isfinite(v)]
    if len(vals) < 2:
        return ""
    if min(vals) > 0 and max(vals) / min(vals) > 100:
        vals = [math.log10(v) for v in vals]
    step = max(1, len(vals) // width)
    vals = vals[::step]
    lo, hi = min(vals), max(vals)
    span = (hi - lo) or 1.0
    return "".join(SPARK[min(7, int((v - lo) / span * 7.999))] for v in vals)


def _cell(text: str) -> str:
    return _inline(text).replace("|", "\\|")


def _md_table(head: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return out


def _md_head(report: Report) -> list[str]:
    out = [
        f"## debug-agent: {verdict(report)}",
        "",
        f"**Root cause.** {_inline(report.root_cause)}",
        "",
        f"**Confidence:** {report.confidence:.2f}" + ("  ·  **partial run**" if report.partial else ""),
        "",
        "**First action**",
        "",
        *fence(report.first_action, "text"),
        "",
        f"- **If true:** {_inline(report.prediction_if_true)}",
        f"- **If false:** {_inline(report.prediction_if_false)}",
        "",
    ]
    if report.immediate_changes:
        out += ["**Immediate changes**", ""] + [f"- {_inline(c)}" for c in report.immediate_changes] + [""]
    return out


def _md_body(report: Report, assets: dict[str, str] | None, max_rows: int) -> list[str]:
    out: list[str] = ["### Evidence", ""]
    if report.observations:
        rows = [[o.kind, f"`{o.source}`", o.text] for o in report.observations]
        out += _md_table(["kind", "source", "text"], rows[:max_rows])
    else:
        out += [f"- {_inline(e)}" for e in report.evidence[:max_rows]]
    if report.hypotheses:
        out += ["", "### Competing hypotheses", ""]
        rows = [[f"{h.title} (`{h.cause_id}`)", f"{h.credence:.2f}", h.status] for h in report.hypotheses]
        out += _md_table(["cause", "credence", "status"], rows[:max_rows])
    elif report.competing_hypotheses:
        out += ["", "### Competing hypotheses", ""] + [f"- {_inline(c)}" for c in report.competing_hypotheses]
    if report.probes:
        out += ["", "### Probes", ""]
        rows = [[r.name, r.status, r.summary, key_measurement(r), f"{r.seconds:.2f}"] for r in report.probes]
        out += _md_table(["probe", "status", "summary", "key measurement", "seconds"], rows[:max_rows])
    if assets:
        out += ["", "### Plots", ""] + [f"![{name}]({path})" for name, path in assets.items()]
    if report.fallback_logic:
        out += ["", "### If the first action does not confirm it", ""]
        out += [f"- {_inline(f)}" for f in report.fallback_logic]
    if report.notes:
        out += ["", "### Notes", ""] + [f"- {_inline(n)}" for n in report.notes[:max_rows]]
    return out + [""]


def _details(report: Report) -> list[str]:
    rows = [r for r in report.probes if r.measurements]
    if not rows:
        return []
    out = ["<details><summary>Measurements</summary>", ""]
    for r in rows:
        out += [f"**{r.name}**", "", *fence(json.dumps(r.measurements, indent=1), "json"), ""]
    return out + ["</details>", ""]


JSON_OPEN = "<details><summary>Full report (JSON)</summary>"


def _embedded(report: Report) -> list[str]:
    return [JSON_OPEN, "", *fence(report.model_dump_json(), "json"), "", "</details>", ""]


def to_markdown(report: Report, *, assets: dict[str, str] | None = None, limit: int = GITHUB_LIMIT) -> str:
    """Markdown for an issue comment: verdict first, tables, measurements, the full JSON collapsed.

    Kept under `limit` characters (GitHub's comment limit) by dropping, in order: the measurement
    details, table rows, and finally the measurements inside the embedded JSON. The verdict, root
    cause and first action are never cut.
    """
    report = safe(report)
    head = _md_head(report)
    attempts = [
        (_md_body(report, assets, 10_000), _details(report), report),
        (_md_body(report, assets, 10_000), [], report),
        (_md_body(report, assets, 12), [], report),
        (_md_body(report, assets, 6), [], _slim(report)),
    ]
    for body, details, embedded in attempts:
        text = "\n".join(head + body + details + _embedded(embedded))
        if len(text) <= limit:
            return text
    return "\n".join(head + ["_The full report is too large for one comment; save it with `-o report.json`._", ""])


def _slim(report: Report) -> Report:
    """The report without probe measurements, for when the whole JSON does not fit."""
    probes = [p.model_copy(update={"measurements": {}}) for p in report.probes]
    return report.model_copy(
        update={"probes": probes, "notes": report.notes + ["probe measurements were left out to fit the size limit"]}
    )


def _depth(raw: str) -> int:
    """The deepest nesting of arrays and objects in a JSON text (strings skipped)."""
    brackets = re.sub(r"[^\[\]{}]", "", re.sub(r'"(?:[^"\\]|\\.)*"', "", raw))
    depth = deepest = 0
    for ch in brackets:
        depth += 1 if ch in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _embedded_json(text: str, path: str) -> str:
    from debug_agent.errors import InputError

    start = text.find(JSON_OPEN)
    m = re.compile(r"^(`{3,})json[ \t]*$", re.M).search(text, start if start >= 0 else 0)
    if m is None:
        raise InputError(
            f"{path!r} is neither a JSON report nor a Markdown report with the JSON embedded",
            fix="render a report saved with --format json, or one saved with --format md",
        )
    end = re.compile(rf"^{m.group(1)}[ \t]*$", re.M).search(text, m.end())
    return text[m.end() : end.start() if end else len(text)].strip()


def read_report(path: str) -> Report:
    """A Report from a saved JSON report or from a Markdown report's embedded JSON (size and depth checked)."""
    from pydantic import ValidationError

    from debug_agent.errors import InputError, validation_problems

    try:
        size = Path(path).stat().st_size
        if size > MAX_REPORT_BYTES:
            raise InputError(
                f"report file {path!r} is {size / 1e6:.0f} MB; a report is at most {MAX_REPORT_BYTES / 1e6:.0f} MB",
                fix="render a report written by debug-agent",
            )
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"report file {path!r} does not exist") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"report file {path!r} is not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise InputError(f"cannot read report file {path!r}: {exc.strerror or exc}") from None
    raw = text.strip()
    if not raw.startswith("{"):
        raw = _embedded_json(text, path)
    if _depth(raw) > MAX_DEPTH:
        raise InputError(
            f"{path!r} nests arrays or objects more than {MAX_DEPTH} deep; no report does",
            fix="render a report written by debug-agent",
        )
    try:
        return Report.model_validate_json(raw)
    except ValidationError as exc:
        raise InputError(
            f"{path!r} is not a valid report: {validation_problems(exc, limit=1)}",
            fix="`debug-agent schema` prints the schema a report must follow",
        ) from None


NARROW = 100  # terminals narrower than this get lists instead of multi-column tables


def print_text(report: Report, console: Any) -> None:
    """The terminal view: a panel with the verdict and first action, then evidence, hypotheses and probes.

    On a terminal narrower than NARROW columns the sections are lists (one item per entry, its text on
    full-width indented lines) instead of tables whose text column would shrink to a few characters.
    """
    from rich.markup import escape

    report = safe(report)  # no control characters or escape sequences reach the terminal
    console.print(_panel(report))
    narrow = console.width < NARROW
    if report.observations:
        _print_evidence_list(report, console) if narrow else _print_evidence_table(report, console)
    if report.hypotheses:
        _print_hypotheses_list(report, console) if narrow else _print_hypotheses_table(report, console)
    if report.probes:
        _print_probes_list(report, console) if narrow else _print_probes_table(report, console)
    for n in report.notes:
        console.print(f"[dim]note: {escape(n)}[/dim]")


def _panel(report: Report) -> Any:
    from rich.markup import escape
    from rich.panel import Panel

    report = safe(report)
    style = "red" if report.found_defect else "green"
    lines = [
        f"[bold]{escape(verdict(report))}[/bold]",
        "",
        escape(report.root_cause),
        "",
        f"[bold]First action:[/bold] {escape(report.first_action)}",
        f"[bold]If true:[/bold] {escape(report.prediction_if_true)}",
        f"[bold]If false:[/bold] {escape(report.prediction_if_false)}",
    ]
    if report.immediate_changes:
        lines += ["", "[bold]Immediate changes:[/bold]"] + [f"  • {escape(c)}" for c in report.immediate_changes]
    return Panel("\n".join(lines), title="debug-agent", border_style=style)


def _curve_view(r: ProbeResult) -> str:
    curve = r.measurements.get("curve")
    return sparkline([c[1] for c in curve]) if isinstance(curve, list) and curve else ""


def _item(console: Any, head: str, body: str) -> None:
    """One list entry: a bold-ish head line, then the body on full-width lines indented by four."""
    from rich.padding import Padding
    from rich.text import Text

    console.print(Text.from_markup(f"  • {head}"))
    if body:
        console.print(Padding(Text(body), (0, 0, 0, 4)))


def _print_evidence_table(report: Report, console: Any) -> None:
    from rich.markup import escape
    from rich.table import Table

    ev = Table(title="Evidence", show_lines=False, expand=True)
    ev.add_column("kind", no_wrap=True)
    ev.add_column("source", no_wrap=True)
    ev.add_column("text")
    for o in report.observations:
        ev.add_row(o.kind, escape(o.source), escape(o.text))
    console.print(ev)


def _print_evidence_list(report: Report, console: Any) -> None:
    from rich.markup import escape

    console.print("[bold]Evidence[/bold]")
    for o in report.observations:
        _item(console, f"[dim]{escape(o.kind)}[/dim] {escape(o.source)}", o.text)


def _print_hypotheses_table(report: Report, console: Any) -> None:
    from rich.markup import escape
    from rich.table import Table

    hy = Table(title="Hypotheses", expand=True)
    for col in ("cause", "credence", "status"):
        hy.add_column(col)
    for h in report.hypotheses[:6]:
        bar = "█" * round(h.credence * 20)
        hy.add_row(f"{escape(h.title)} ({escape(h.cause_id)})", f"{h.credence:.2f} {bar}", h.status)
    console.print(hy)


def _print_hypotheses_list(report: Report, console: Any) -> None:
    from rich.markup import escape

    console.print("[bold]Hypotheses[/bold]")
    for h in report.hypotheses[:6]:
        bar = "█" * round(h.credence * 20)
        _item(console, f"{h.credence:.2f} {bar} [dim]{escape(h.status)}[/dim]", f"{h.title} ({h.cause_id})")


def _print_probes_table(report: Report, console: Any) -> None:
    from rich.markup import escape
    from rich.table import Table

    pt = Table(title="Probes", expand=True)
    for col in ("probe", "status", "summary", "curve", "s"):
        pt.add_column(col, no_wrap=col == "curve")
    for r in report.probes:
        pt.add_row(r.name, r.status, escape(r.summary), _curve_view(r), f"{r.seconds:.2f}")
    console.print(pt)


def _print_probes_list(report: Report, console: Any) -> None:
    from rich.markup import escape

    console.print("[bold]Probes[/bold]")
    for r in report.probes:
        curve = _curve_view(r)
        head = f"{escape(r.name)} [dim]{escape(r.status)} · {r.seconds:.2f} s[/dim]" + (f"  {curve}" if curve else "")
        _item(console, head, r.summary)
