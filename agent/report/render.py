"""Render a Report as JSON, Markdown or a rich terminal view. Rendering never computes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from debug_agent.schemas import ProbeResult, Report

GITHUB_LIMIT = 65_536  # characters in one GitHub issue comment


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
    return " ".join(str(text).split()).replace("|", "\\|")


def _md_table(head: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return out


def _md_head(report: Report) -> list[str]:
    out = [
        f"## debug-agent: {verdict(report)}",
        "",
        f"**Root cause.** {report.root_cause}",
        "",
        f"**Confidence:** {report.confidence:.2f}" + ("  ·  **partial run**" if report.partial else ""),
        "",
        "**First action**",
        "",
        "```text",
        report.first_action,
        "```",
        "",
        f"- **If true:** {report.prediction_if_true}",
        f"- **If false:** {report.prediction_if_false}",
        "",
    ]
    if report.immediate_changes:
        out += ["**Immediate changes**", ""] + [f"- {c}" for c in report.immediate_changes] + [""]
    return out


def _md_body(report: Report, assets: dict[str, str] | None, max_rows: int) -> list[str]:
    out: list[str] = ["### Evidence", ""]
    if report.observations:
        rows = [[o.kind, f"`{o.source}`", o.text] for o in report.observations]
        out += _md_table(["kind", "source", "text"], rows[:max_rows])
    else:
        out += [f"- {e}" for e in report.evidence[:max_rows]]
    if report.hypotheses:
        out += ["", "### Competing hypotheses", ""]
        rows = [[f"{h.title} (`{h.cause_id}`)", f"{h.credence:.2f}", h.status] for h in report.hypotheses]
        out += _md_table(["cause", "credence", "status"], rows[:max_rows])
    elif report.competing_hypotheses:
        out += ["", "### Competing hypotheses", ""] + [f"- {c}" for c in report.competing_hypotheses]
    if report.probes:
        out += ["", "### Probes", ""]
        rows = [[r.name, r.status, r.summary, key_measurement(r), f"{r.seconds:.2f}"] for r in report.probes]
        out += _md_table(["probe", "status", "summary", "key measurement", "seconds"], rows[:max_rows])
    if assets:
        out += ["", "### Plots", ""] + [f"![{name}]({path})" for name, path in assets.items()]
    if report.fallback_logic:
        out += ["", "### If the first action does not confirm it", ""] + [f"- {f}" for f in report.fallback_logic]
    if report.notes:
        out += ["", "### Notes", ""] + [f"- {n}" for n in report.notes[:max_rows]]
    return out + [""]


def _details(report: Report) -> list[str]:
    rows = [r for r in report.probes if r.measurements]
    if not rows:
        return []
    out = ["<details><summary>Measurements</summary>", ""]
    for r in rows:
        out += [f"**{r.name}**", "", "```json", json.dumps(r.measurements, indent=1), "```", ""]
    return out + ["</details>", ""]


JSON_OPEN = "<details><summary>Full report (JSON)</summary>"


def _embedded(report: Report) -> list[str]:
    return [JSON_OPEN, "", "```json", report.model_dump_json(), "```", "", "</details>", ""]


def to_markdown(report: Report, *, assets: dict[str, str] | None = None, limit: int = GITHUB_LIMIT) -> str:
    """Markdown for an issue comment: verdict first, tables, measurements, the full JSON collapsed.

    Kept under `limit` characters (GitHub's comment limit) by dropping, in order: the measurement
    details, table rows, and finally the measurements inside the embedded JSON. The verdict, root
    cause and first action are never cut.
    """
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


def read_report(path: str) -> Report:
    """A Report from a saved JSON report or from a Markdown report's embedded JSON."""
    from pydantic import ValidationError

    from debug_agent.errors import InputError, validation_problems

    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"report file {path!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read report file {path!r}: {exc}") from exc
    raw = text.strip()
    if not raw.startswith("{"):
        start = text.find(JSON_OPEN)
        block = text.find("```json", start if start >= 0 else 0)
        if block < 0:
            raise InputError(
                f"{path!r} is neither a JSON report nor a Markdown report with the JSON embedded",
                fix="render a report saved with --format json, or one saved with --format md",
            )
        end = text.find("```", block + 7)
        raw = text[block + 7 : end].strip()
    try:
        return Report.model_validate_json(raw)
    except ValidationError as exc:
        raise InputError(
            f"{path!r} is not a valid report: {validation_problems(exc, limit=1)}",
            fix="`debug-agent schema` prints the schema a report must follow",
        ) from exc


def print_text(report: Report, console: Any) -> None:
    """The terminal view: a panel with the verdict and first action, then evidence and probe tables."""
    from rich.markup import escape
    from rich.panel import Panel
    from rich.table import Table

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
    console.print(Panel("\n".join(lines), title="debug-agent", border_style=style))
    ev = Table(title="Evidence", show_lines=False, expand=True)
    ev.add_column("kind", no_wrap=True)
    ev.add_column("source", no_wrap=True)
    ev.add_column("text")
    for o in report.observations:
        ev.add_row(o.kind, escape(o.source), escape(o.text))
    if report.observations:
        console.print(ev)
    if report.hypotheses:
        hy = Table(title="Hypotheses", expand=True)
        for col in ("cause", "credence", "status"):
            hy.add_column(col)
        for h in report.hypotheses[:6]:
            bar = "█" * round(h.credence * 20)
            hy.add_row(f"{escape(h.title)} ({h.cause_id})", f"{h.credence:.2f} {bar}", h.status)
        console.print(hy)
    if report.probes:
        pt = Table(title="Probes", expand=True)
        for col in ("probe", "status", "summary", "curve", "s"):
            pt.add_column(col, no_wrap=col == "curve")
        for r in report.probes:
            curve = r.measurements.get("curve")
            view = sparkline([c[1] for c in curve]) if isinstance(curve, list) and curve else ""
            pt.add_row(r.name, r.status, escape(r.summary), view, f"{r.seconds:.2f}")
        console.print(pt)
    for n in report.notes:
        console.print(f"[dim]note: {escape(n)}[/dim]")
