"""Turn what the user typed or pointed at into a Case: symptom text, parsed diff, target reference."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import IO

from debug_agent.errors import InputError, UsageError
from debug_agent.intake import diff as diffmod
from debug_agent.schemas import Case, TargetRef

SYMPTOM_HEAD = 2_000  # characters kept from the start of a long paste (the user's own words)
SYMPTOM_TAIL = 8_000  # characters kept from the end (the latest log lines)
MAX_DIFF_BYTES = 5_000_000


def clip_symptom(text: str) -> tuple[str, list[str]]:
    """Keep the head and the useful tail of a huge paste, and say what was cut."""
    text = text.replace("\r\n", "\n").strip()
    if len(text) <= SYMPTOM_HEAD + SYMPTOM_TAIL:
        return text, []
    cut = len(text) - SYMPTOM_HEAD - SYMPTOM_TAIL
    kept = text[:SYMPTOM_HEAD] + f"\n[... {cut} characters cut ...]\n" + text[-SYMPTOM_TAIL:]
    return kept, [
        f"the symptom was {len(text)} characters; {cut} characters from the middle were cut "
        f"(kept the first {SYMPTOM_HEAD} and the last {SYMPTOM_TAIL})"
    ]


def _read_text(path: str, what: str) -> bytes:
    p = Path(path)
    try:
        exists = p.exists()
    except OSError as exc:  # a name too long for the file system: most likely text given where a path belongs
        raise InputError(
            f"{what} file {path[:60]!r}... cannot be a file name ({exc.strerror})",
            fix=f"give the path of the {what} file; to pass the {what} as words, use SYMPTOM or --symptom TEXT",
        ) from exc
    if not exists:
        raise InputError(f"{what} file {path!r} does not exist", fix=f"check the path given for the {what}")
    if p.is_dir():
        raise InputError(f"{what} path {path!r} is a directory, not a file", fix=f"point at the {what} file itself")
    try:
        return p.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {what} file {path!r}: {exc.strerror}") from exc


def read_symptom(text: str | None, file: str | None, stdin: IO[str] | None) -> tuple[str, list[str]]:
    if text is not None and file is not None:
        raise UsageError("give the symptom either as text or with --symptom-file, not both")
    if file is not None:
        raw = _read_text(file, "symptom").decode("utf-8", errors="replace")
    elif text == "-" or (text is None and stdin is not None):
        raw = stdin.read() if stdin is not None else ""
    else:
        raw = text or ""
    if not raw.strip():
        raise InputError(
            "the symptom is empty",
            fix='describe what you see, e.g. debug-agent ask "validation accuracy changes with the batch" '
            "(or --symptom-file FILE, or pipe it on stdin)",
        )
    return clip_symptom(raw)


def read_diff(path: str) -> Case:
    data = _read_text(path, "diff")
    notes: list[str] = []
    if len(data) > MAX_DIFF_BYTES:
        notes.append(f"the diff is {len(data)} bytes; only the first {MAX_DIFF_BYTES} were analysed")
        data = data[:MAX_DIFF_BYTES]
    if b"\0" in data[:8192] and not data.lstrip().startswith((b"diff", b"---")):
        raise InputError(
            f"{path!r} is a binary file, not a unified diff", fix="pass a text diff made with `git diff` or `diff -u`"
        )
    text, dec_notes = diffmod.decode(data)
    parsed = diffmod.parse(text, source=f"file {path!r}")
    parsed.notes[:0] = notes + dec_notes
    return Case(diff=parsed)


def git_diff(rev: str, cwd: str | None = None) -> Case:
    try:
        proc = subprocess.run(
            ["git", "diff", "--no-color", "--no-ext-diff", rev], capture_output=True, cwd=cwd, timeout=60, check=False
        )
    except FileNotFoundError as exc:
        raise InputError(
            "--git needs the git command, which is not installed",
            fix="install git, or save a diff and pass --diff FILE",
        ) from exc
    except subprocess.TimeoutExpired as exc:
        raise InputError("`git diff` took longer than 60 s", fix="pass a saved diff with --diff FILE") from exc
    if proc.returncode != 0:
        msg = proc.stderr.decode(errors="replace").strip().splitlines()
        raise InputError(
            f"`git diff {rev}` failed: {msg[0] if msg else 'unknown error'}",
            fix="run inside a git repository, with a revision that exists (default HEAD)",
        )
    if not proc.stdout.strip():
        return Case(notes=[f"`git diff {rev}` is empty: no code change to analyse"])
    text, notes = diffmod.decode(proc.stdout[:MAX_DIFF_BYTES])
    parsed = diffmod.parse(text, source=f"output of `git diff {rev}`")
    parsed.notes[:0] = notes
    return Case(diff=parsed)


def target_ref(spec: str) -> TargetRef:
    ref = TargetRef.parse(spec)
    p = Path(ref.path)
    if not p.exists():
        raise InputError(
            f"target file {ref.path!r} does not exist",
            fix="pass --target path/to/file.py[:function] (relative to the current directory)",
        )
    if p.suffix != ".py" or p.is_dir():
        raise InputError(f"target {ref.path!r} is not a Python file", fix="point --target at a .py file")
    return ref


def build(symptom: str, *, symptom_notes: list[str], diff_case: Case | None, target: TargetRef | None) -> Case:
    notes = list(symptom_notes) + (diff_case.notes if diff_case else [])
    return Case(symptom=symptom, diff=diff_case.diff if diff_case else None, target=target, notes=notes)
