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
    reader = _Reader()
    for raw in lines:
        if not reader.header(raw):
            reader.body(raw)
    if not reader.saw_header:
        raise InputError(
            f"the {source} does not look like a unified diff (no '---'/'+++' file headers or '@@' hunks)",
            fix="produce one with `git diff > change.diff` or `diff -u old.py new.py > change.diff`, or use --git",
        )
    files, binary = reader.files, reader.binary
    files += [name for name in binary if name not in files]
    if binary:
        notes.append(f"binary files in the diff were skipped: {', '.join(binary)}")
    return ParsedDiff(files=files, binary_files=binary, hunks=reader.hunks, notes=notes)


class _Reader:
    """Walks a diff line by line: file headers open files, `@@` opens a hunk, the rest are hunk lines."""

    def __init__(self) -> None:
        self.files: list[str] = []
        self.binary: list[str] = []
        self.hunks: list[DiffHunk] = []
        self.current_file: str | None = None
        self.old_file: str | None = None
        self.hunk: DiffHunk | None = None
        self.old_no = self.new_no = 0
        self.saw_header = False

    def header(self, raw: str) -> bool:
        """Consume a file/hunk header line; False when `raw` is not one."""
        if m := GIT_RE.match(raw):
            self.saw_header, self.hunk, self.current_file = True, None, m.group(2)
        elif m := BINARY_RE.match(raw):
            self.saw_header, self.hunk = True, None
            self.binary.append(m.group(2) if m.group(2) != "/dev/null" else m.group(1))
        elif raw.startswith("GIT binary patch"):
            if self.current_file and self.current_file not in self.binary:
                self.binary.append(self.current_file)
            self.hunk = None
        elif self.hunk is None and (m := OLD_FILE_RE.match(raw)):
            self.old_file = m.group(1)
        elif self.hunk is None and (m := FILE_RE.match(raw)):
            self.saw_header = True
            name = m.group(1)
            self.current_file = self.old_file if name == "/dev/null" and self.old_file else name
            if self.current_file not in self.files:
                self.files.append(self.current_file)
        elif m := HUNK_RE.match(raw):
            if self.current_file is None:
                self.current_file = "<unknown>"
                self.files.append(self.current_file)
            self.saw_header = True
            self.old_no, self.new_no = int(m.group(1)), int(m.group(3))
            self.hunk = DiffHunk(
                file=self.current_file, old_start=self.old_no, new_start=self.new_no, header=m.group(5).strip()
            )
            self.hunks.append(self.hunk)
        else:
            return False
        return True

    def body(self, raw: str) -> None:
        """A line inside a hunk: added, removed, context, or the end of this file's hunks."""
        if self.hunk is None:
            return
        tag, body = raw[:1], raw[1:]
        if tag == "+" and not raw.startswith("+++ "):
            self.hunk.lines.append(DiffLine(kind="+", line=self.new_no, text=body))
            self.new_no += 1
        elif tag == "-" and not raw.startswith("--- "):
            self.hunk.lines.append(DiffLine(kind="-", line=self.old_no, text=body))
            self.old_no += 1
        elif tag == " " or raw == "":
            self.hunk.lines.append(DiffLine(kind=" ", line=self.new_no, text=body))
            self.old_no += 1
            self.new_no += 1
        elif tag != "\\":  # "\ No newline at end of file" is skipped; anything else ends the hunks
            self.hunk = None
