"""Run the registered cues over a parsed diff and over the user's source files, each hit with file:line.

May import: schemas, the cue registry, plugins (which loads the rule modules).
"""

from __future__ import annotations

import re
from pathlib import Path

from debug_agent.cues.registry import CUES, DEF_RE, CueSpec, strip_comment
from debug_agent.schemas import CodeCue, DiffHunk, DiffLine, ParsedDiff

MAX_SOURCE_BYTES = 2_000_000


def registered_cues() -> dict[str, CueSpec]:
    """Every registered cue, built-in and plug-in alike (loading them registers them)."""
    from debug_agent import plugins

    plugins.cue_modules()
    return CUES


def scan_diff(diff: ParsedDiff) -> list[CodeCue]:
    """Cues on the lines a diff adds (line scope) and on whole hunks (hunk scope)."""
    specs = registered_cues().values()
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
    specs = registered_cues().values()
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
