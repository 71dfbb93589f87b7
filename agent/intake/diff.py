"""Unified-diff parsing into `ParsedDiff` (files, hunks, line numbers), with caps and clear errors."""

from __future__ import annotations

import re

from debug_agent.errors import InputError
from debug_agent.schemas import DiffHunk, DiffLine, ParsedDiff

MAX_DIFF_LINES = 20_000  # lines analysed; the rest is counted and noted in the report

HUNK_RE = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$")
FILE_RE = re.compile(r"^\+\+\+ (?:b/)?(.+?)(?:\t.*)?$")
OLD_FILE_RE = re.compile(r"^--- (?:a/)?(.+?)(?:\t.*)?$")
GIT_RE = re.compile(r"^diff --git a/(.+) b/(.+)$")
BINARY_RE = re.compile(r"^Binary files (?:a/)?(.+?) and (?:b/)?(.+?) differ$")


def decode(data: bytes) -> tuple[str, list[str]]:
    """Bytes to text. Non-UTF-8 bytes are replaced, and a note says so."""
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        return data.decode("utf-8", errors="replace"), [
            f"the diff is not valid UTF-8 (first bad byte at offset {exc.start}); undecodable bytes were replaced"
        ]


def parse(text: str, *, source: str = "diff") -> ParsedDiff:
    """Parse a unified diff. Raises InputError when the text holds no diff at all."""
    lines = text.splitlines()
    notes: list[str] = []
    if len(lines) > MAX_DIFF_LINES:
        notes.append(f"the diff has {len(lines)} lines; only the first {MAX_DIFF_LINES} were analysed")
        lines = lines[:MAX_DIFF_LINES]
    files: list[str] = []
    binary: list[str] = []
    hunks: list[DiffHunk] = []
    current_file: str | None = None
    old_file: str | None = None
    hunk: DiffHunk | None = None
    old_no = new_no = 0
    saw_header = False
    for raw in lines:
        if m := GIT_RE.match(raw):
            saw_header, hunk, current_file = True, None, m.group(2)
            continue
        if m := BINARY_RE.match(raw):
            saw_header, hunk = True, None
            binary.append(m.group(2) if m.group(2) != "/dev/null" else m.group(1))
            continue
        if raw.startswith("GIT binary patch"):
            if current_file and current_file not in binary:
                binary.append(current_file)
            hunk = None
            continue
        if hunk is None and (m := OLD_FILE_RE.match(raw)):
            old_file = m.group(1)
            continue
        if hunk is None and (m := FILE_RE.match(raw)):
            saw_header = True
            name = m.group(1)
            current_file = old_file if name == "/dev/null" and old_file else name
            if current_file not in files:
                files.append(current_file)
            continue
        if m := HUNK_RE.match(raw):
            if current_file is None:
                current_file = "<unknown>"
                files.append(current_file)
            saw_header = True
            old_no, new_no = int(m.group(1)), int(m.group(3))
            hunk = DiffHunk(file=current_file, old_start=old_no, new_start=new_no, header=m.group(5).strip())
            hunks.append(hunk)
            continue
        if hunk is None:
            continue
        tag, body = raw[:1], raw[1:]
        if tag == "+" and not raw.startswith("+++ "):
            hunk.lines.append(DiffLine(kind="+", line=new_no, text=body))
            new_no += 1
        elif tag == "-" and not raw.startswith("--- "):
            hunk.lines.append(DiffLine(kind="-", line=old_no, text=body))
            old_no += 1
        elif tag == " " or raw == "":
            hunk.lines.append(DiffLine(kind=" ", line=new_no, text=body))
            old_no += 1
            new_no += 1
        elif tag == "\\":
            continue  # "\ No newline at end of file"
        else:
            hunk = None  # end of this file's hunks (e.g. the next "diff --git" preamble line)
    if not saw_header:
        raise InputError(
            f"the {source} does not look like a unified diff (no '---'/'+++' file headers or '@@' hunks)",
            fix="produce one with `git diff > change.diff` or `diff -u old.py new.py > change.diff`, or use --git",
        )
    for name in binary:
        if name not in files:
            files.append(name)
    if binary:
        notes.append(f"binary files in the diff were skipped: {', '.join(binary)}")
    return ParsedDiff(files=files, binary_files=binary, hunks=hunks, notes=notes)
