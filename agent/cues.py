"""Static cues: known bug shapes found in the diff and in the target's own source, each with file:line.

Detectors live in `cue_rules.py` and register here with `@cue`; the catalog refers to them by id.
Three scopes:
- line:  `fn(code, func) -> detail | None` on one line (added diff lines and/or source lines);
         `func` is the enclosing function's name when known.
- hunk:  `fn(hunk) -> [(DiffLine, detail)]` on a diff hunk (what was removed and what replaced it).
- file:  `fn(path, text) -> [(line, detail)]` on a whole source file (function-level absences).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from .errors import RegistrationError
from .schemas import CodeCue, DiffHunk, DiffLine, ParsedDiff

Scope = Literal["line", "hunk", "file"]
ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")
DEF_RE = re.compile(r"^\s*(?:async\s+)?def\s+(\w+)|^\s*class\s+(\w+)")
MAX_SOURCE_BYTES = 2_000_000


@dataclass(frozen=True)
class CueSpec:
    id: str
    help: str
    scope: Scope
    fn: Callable[..., Any]
    on: tuple[str, ...]  # "diff", "source"


CUES: dict[str, CueSpec] = {}


def cue(cue_id: str, *, scope: Scope = "line", on: tuple[str, ...] = ("diff", "source")) -> Callable[[Any], Any]:
    """Register a cue detector. Its docstring's first line is its help."""

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        culprit = f"cue {cue_id!r} ({fn.__module__}.{fn.__qualname__})"
        if not ID_RE.match(cue_id):
            raise RegistrationError(f"{culprit}: id must be lower_snake_case")
        if cue_id in CUES and CUES[cue_id].fn is not fn:
            raise RegistrationError(f"{culprit}: id already registered")
        if not fn.__doc__:
            raise RegistrationError(f"{culprit}: needs a docstring")
        if scope == "hunk" and on != ("diff",) or scope == "file" and "diff" in on:
            raise RegistrationError(
                f"{culprit}: {scope} cues run on {'diffs' if scope == 'hunk' else 'source files'} only"
            )
        if not set(on) <= {"diff", "source"} or not on:
            raise RegistrationError(f"{culprit}: `on` must name diff and/or source")
        CUES[cue_id] = CueSpec(cue_id, fn.__doc__.strip().splitlines()[0], scope, fn, on)
        return fn

    return register


def _load_rules() -> dict[str, CueSpec]:
    from . import cue_rules, cue_rules_training  # noqa: F401  (importing registers the built-in detectors)

    return CUES


def strip_comment(code: str) -> str:
    """Drop a trailing '# comment' (good enough for cue matching; strings with '#' are rare in ML code)."""
    return code.split("#", 1)[0].rstrip()


def scan_diff(diff: ParsedDiff) -> list[CodeCue]:
    """Cues on the lines a diff adds (line scope) and on whole hunks (hunk scope)."""
    specs = _load_rules().values()
    found: list[CodeCue] = []
    for hunk in diff.hunks:
        func = _hunk_func(hunk)
        for ln in hunk.lines:
            if m := DEF_RE.match(ln.text):
                func = m.group(1) or m.group(2)
            code = strip_comment(ln.text)
            if ln.kind != "+" or not code.strip():
                continue
            for spec in specs:
                if spec.scope == "line" and "diff" in spec.on and (detail := spec.fn(code, func)):
                    found.append(_diff_cue(spec.id, hunk, ln, detail))
        for spec in specs:
            if spec.scope == "hunk":
                found += [_diff_cue(spec.id, hunk, ln, detail) for ln, detail in spec.fn(hunk)]
    return _dedupe(found)


def _diff_cue(cue_id: str, hunk: DiffHunk, ln: DiffLine, detail: str) -> CodeCue:
    return CodeCue(cue_id=cue_id, origin="diff", file=hunk.file, line=ln.line, code=ln.text.strip(), detail=detail)


def _hunk_func(hunk: DiffHunk) -> str | None:
    """git puts the enclosing definition after the second '@@'."""
    m = re.search(r"(?:def|class)\s+(\w+)", hunk.header)
    return m.group(1) if m else None


def scan_source(path: str, text: str, display: str | None = None) -> list[CodeCue]:
    """Cues on every line of a user source file (line scope) and on the file as a whole (file scope)."""
    specs = _load_rules().values()
    name = display or path
    lines = text.splitlines()
    found: list[CodeCue] = []
    func: str | None = None
    for no, raw in enumerate(lines, start=1):
        if m := DEF_RE.match(raw):
            func = m.group(1) or m.group(2)
        code = strip_comment(raw)
        if not code.strip():
            continue
        for spec in specs:
            if spec.scope == "line" and "source" in spec.on:
                if detail := spec.fn(code, func):
                    found.append(
                        CodeCue(cue_id=spec.id, origin="source", file=name, line=no, code=raw.strip(), detail=detail)
                    )
    for spec in specs:
        if spec.scope == "file":
            for no, detail in spec.fn(path, text):
                code = lines[no - 1].strip() if 0 < no <= len(lines) else ""
                found.append(CodeCue(cue_id=spec.id, origin="source", file=name, line=no, code=code, detail=detail))
    return _dedupe(found)


def scan_files(paths: list[str], root: str | None = None) -> tuple[list[CodeCue], list[str]]:
    """Scan user source files by path; returns cues and notes about files that could not be read."""
    cues: list[CodeCue] = []
    notes: list[str] = []
    for p in paths:
        path = Path(p)
        try:
            data = path.read_bytes()
        except OSError as exc:
            notes.append(f"could not read {p} for static cues: {exc.strerror}")
            continue
        if len(data) > MAX_SOURCE_BYTES:
            notes.append(f"{p} is larger than {MAX_SOURCE_BYTES} bytes; skipped for static cues")
            continue
        display = _display(path, root)
        cues += scan_source(str(path), data.decode("utf-8", errors="replace"), display)
    return cues, notes


def _display(path: Path, root: str | None) -> str:
    for base in (root, str(Path.cwd())):
        if base:
            try:
                return str(path.resolve().relative_to(Path(base).resolve()))
            except ValueError:
                continue
    return str(path)


def _dedupe(cues: list[CodeCue]) -> list[CodeCue]:
    seen: set[tuple[str, str, int]] = set()
    out = []
    for c in cues:
        key = (c.cue_id, c.file, c.line)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out
