"""Render a Report as JSON, Markdown or a rich terminal view. Rendering never computes."""

from __future__ import annotations

import json
from typing import Any

from .schemas import ProbeResult, Report

GITHUB_LIMIT = 65_536  # characters in one GitHub issue comment


def to_json(report: Report) -> str:
    return report.model_dump_json(indent=2)


def verdict(report: Report) -> str:
    if report.cause_id == "none":
        return f"No defect found (confidence {report.confidence:.2f})"
    title = report.hypotheses[0].title if report.hypotheses else report.cause_id or "unknown cause"
    return f"{title} — `{report.cause_id}` (confidence {report.confidence:.2f})"


def key_measurement(r: ProbeResult) -> str:
    """One short figure per probe for tables."""
    m = r.measurements
    for key in ("leak_fraction", "relative_drop", "hazards", "max_rel_diff", "dead_fraction", "lr_ratio"):
        if key in m and m[key] is not None:
            return f"{key}={m[key]}"
    return ""


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _md_table(head: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return out


def to_markdown(report: Report, *, assets: dict[str, str] | None = None, limit: int = GITHUB_LIMIT) -> str:
    """Markdown for an issue comment: verdict first; the embedded JSON is cut before the verdict ever is."""
    head = [
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
        head += ["**Immediate changes**", ""] + [f"- {c}" for c in report.immediate_changes] + [""]
    body: list[str] = ["### Evidence", ""]
    if report.observations:
        body += _md_table(["kind", "source", "text"], [[o.kind, f"`{o.source}`", o.text] for o in report.observations])
    else:
        body += [f"- {e}" for e in report.evidence]
    if report.hypotheses:
        body += ["", "### Competing hypotheses", ""]
        body += _md_table(
            ["cause", "credence", "status"],
            [[f"{h.title} (`{h.cause_id}`)", f"{h.credence:.2f}", h.status] for h in report.hypotheses],
        )
    elif report.competing_hypotheses:
        body += ["", "### Competing hypotheses", ""] + [f"- {c}" for c in report.competing_hypotheses]
    if report.probes:
        body += ["", "### Probes", ""]
        body += _md_table(
            ["probe", "status", "summary", "key measurement", "seconds"],
            [[r.name, r.status, r.summary, key_measurement(r), f"{r.seconds:.2f}"] for r in report.probes],
        )
    if assets:
        body += ["", "### Plots", ""] + [f"![{name}]({path})" for name, path in assets.items()]
    if report.fallback_logic:
        body += ["", "### If the first action does not confirm it", ""] + [f"- {f}" for f in report.fallback_logic]
    if report.notes:
        body += ["", "### Notes", ""] + [f"- {n}" for n in report.notes]
    details = _details(report)
    full = "\n".join(head + body) + "\n"
    embedded = _embedded_json(report)
    text = full + details + embedded
    if len(text) <= limit:
        return text
    # Too long for one comment: drop the measurement details, then cut tables, never the verdict.
    text = full + embedded
    if len(text) <= limit:
        return text
    room = limit - len(embedded) - 200
    return (
        text[: max(room, 0)].rsplit("\n", 1)[0]
        + "\n\n_(cut to fit the comment limit; the full report is in the JSON below)_\n\n"
        + embedded
        if len(embedded) < limit - 2000
        else ("\n".join(head) + "\n_(report cut to fit the comment limit; save it with -o report.json)_\n")
    )


def _details(report: Report) -> str:
    rows = [r for r in report.probes if r.measurements]
    if not rows:
        return ""
    out = ["", "<details><summary>Measurements</summary>", ""]
    for r in rows:
        out += [f"**{r.name}**", "", "```json", json.dumps(r.measurements, indent=1)[:6000], "```", ""]
    out += ["</details>", ""]
    return "\n".join(out)


JSON_OPEN = "<details><summary>Full report (JSON)</summary>"


def _embedded_json(report: Report) -> str:
    return "\n".join(["", JSON_OPEN, "", "```json", report.model_dump_json(), "```", "", "</details>", ""])


def print_text(report: Report, console: Any) -> None:
    """The terminal view: a panel with the verdict and first action, then evidence and probe tables."""
    from rich.markup import escape
    from rich.panel import Panel
    from rich.table import Table

    style = "green" if report.cause_id == "none" else "red"
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
        for col in ("probe", "status", "summary", "s"):
            pt.add_column(col)
        for r in report.probes:
            pt.add_row(r.name, r.status, escape(r.summary), f"{r.seconds:.2f}")
        console.print(pt)
    for n in report.notes:
        console.print(f"[dim]note: {escape(n)}[/dim]")
