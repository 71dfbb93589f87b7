"""Where a report goes: stdout or a file written atomically, in text, JSON or Markdown, with plots."""

from __future__ import annotations

import io
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from debug_agent.errors import UsageError
from debug_agent.report import render
from debug_agent.schemas import Report


def write_atomic(path: str | Path, text: str) -> None:
    """Temp file in the same folder + rename: an interrupted run never leaves half a report."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"cannot write {str(path)!r}: folder {str(folder)!r} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def err_console() -> Any:
    from rich.console import Console

    return Console(stderr=True, highlight=False, soft_wrap=True)


def assets_folder(fmt: str, output: str | None, assets: str | None) -> Path | None:
    """`--assets DIR`, or for a Markdown file written with -o, a folder beside it."""
    if assets:
        return Path(assets)
    if fmt == "md" and output:
        out = Path(output)
        return out.with_name(f"{out.stem}-assets")
    return None


def save_plots(report: Report, folder: Path | None, output: str | None) -> tuple[dict[str, str], list[str]]:
    """PNG plots for the report; paths relative to the Markdown file's folder. Notes say what was skipped."""
    from debug_agent.report import plots

    if folder is None:
        return {}, []
    if not plots.available():
        return {}, ["plots skipped: matplotlib is not installed (pip install 'debug-agent[plots]')"]
    base = Path(output).resolve().parent if output else Path.cwd()
    saved = plots.save(report, folder)
    links = {}
    for title, path in saved.items():
        try:
            links[title] = os.path.relpath(path.resolve(), base)
        except ValueError:
            links[title] = str(path.resolve())
    return links, []


def emit(report: Report, fmt: str, output: str | None, assets: str | None = None, quiet: bool = False) -> None:
    folder = assets_folder(fmt, output, assets)
    links, notes = save_plots(report, folder, output)
    if notes and not quiet:
        err_console().print(f"[dim]{notes[0]}[/dim]")
    if fmt == "json":
        text = render.to_json(report) + "\n"
    elif fmt == "md":
        text = render.to_markdown(report, assets=links)
    else:
        from rich.console import Console

        if output is None:
            render.print_text(report, Console(highlight=False))
            return
        buf = io.StringIO()
        render.print_text(report, Console(file=buf, width=110, no_color=True, highlight=False))
        text = buf.getvalue()
    if output:
        write_atomic(output, text)
        if not quiet:
            err_console().print(
                f"[dim]report written to {output}" + (f", plots in {folder}" if links else "") + "[/dim]"
            )
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
