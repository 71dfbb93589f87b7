"""How reports name the user's files: relative to the repository root (or the working folder when
there is none); a file outside both keeps its absolute path, with the home folder shortened to ~.

Applied once, to the composed Report (probe `where` strings, cue files, narrative `{where}` and every
other string), so no report shows the user's machine layout.

May import: schemas.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from debug_agent.schemas import Report


def repo_root(start: Path) -> Path | None:
    """The nearest folder at or above `start` holding .git."""
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return None


def _prefixes(cwd: str | None) -> list[tuple[str, str]]:
    """(absolute prefix, replacement), longest first."""
    here = Path(cwd or os.getcwd()).resolve()
    base = repo_root(here) or here
    out = [(str(base), "")]
    home = os.path.expanduser("~").rstrip(os.sep)
    if home and home != str(base):
        out.append((home, "~"))
    return sorted(out, key=lambda p: -len(p[0]))


def _rewrite(text: str, rules: list[tuple[re.Pattern[str], str]]) -> str:
    for rx, repl in rules:
        text = rx.sub(repl, text)
    return text


def _walk(value: Any, rules: list[tuple[re.Pattern[str], str]]) -> Any:
    if isinstance(value, str):
        return _rewrite(value, rules)
    if isinstance(value, dict):
        return {k: _walk(v, rules) for k, v in value.items()}
    if isinstance(value, list):
        return [_walk(v, rules) for v in value]
    return value


def relative(report: Report, cwd: str | None = None) -> Report:
    """The report with the user's absolute paths made relative (or ~-shortened)."""
    rules = []
    for prefix, repl in _prefixes(cwd):
        # the prefix followed by a separator, not inside a longer word or path component
        rx = re.compile(r"(?<![\w./-])" + re.escape(prefix.rstrip(os.sep)) + re.escape(os.sep))
        rules.append((rx, (repl + "/") if repl else ""))
    return Report.model_validate(_walk(report.model_dump(), rules))
