"""Helpers shared by cue rule modules: diff hunk slicing and AST access to functions and lines.

May import: schemas, the cue registry.
"""

from __future__ import annotations

import ast
import re

from debug_agent.cues.registry import strip_comment
from debug_agent.schemas import DiffHunk, DiffLine


def _removed_added(hunk: DiffHunk) -> tuple[list[DiffLine], list[DiffLine]]:
    return [ln for ln in hunk.lines if ln.kind == "-"], [ln for ln in hunk.lines if ln.kind == "+"]


# An optimizer's constructor: torch.optim's, or a project's own Adam variant (OpenAIAdam, FusedAdam, AdamW8bit).
OPT_CTOR = re.compile(r"(?:\boptim\.\w+|\w*(?:Adam|SGD|RMSprop|Adagrad|Lion|Adafactor)\w*)\s*\(")

_FOR = re.compile(r"\s*(?:async\s+)?for\s")
_DEF = re.compile(r"\s*(?:async\s+)?(?:def|class)\s")


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


def _enclosing(above: list[DiffLine], indent: int, *, with_removed: bool = True) -> list[str]:
    """The block headers around a line indented `indent`, innermost first: walking up the hunk, each code
    line indented less than the last one kept."""
    out = []
    for ln in reversed(above):
        code = strip_comment(ln.text)
        if (with_removed or ln.kind != "-") and code.strip() and _indent(ln.text) < indent:
            out.append(code)
            indent = _indent(ln.text)
    return out


def _enclosing_loop(
    above: list[DiffLine], indent: int, *, loop: re.Pattern[str] = _FOR, with_removed: bool = False
) -> str | None:
    """The innermost loop header around a line indented `indent`, or None when a def/class comes first."""
    for header in _enclosing(above, indent, with_removed=with_removed):
        if loop.match(header):
            return header
        if _DEF.match(header):
            return None
    return None


def _gone(hunk: DiffHunk, pattern: str) -> list[tuple[DiffLine, str]]:
    """Removed lines matching `pattern` when no added line in the hunk matches it again."""
    rx = re.compile(pattern)
    removed, added = _removed_added(hunk)
    if any(rx.search(strip_comment(a.text)) for a in added):
        return []
    return [(r, f"removes `{r.text.strip()}`") for r in removed if rx.search(strip_comment(r.text))]


def _functions(text: str) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _src(text: str, node: ast.AST) -> str:
    return ast.get_source_segment(text, node) or ""


def _first_line(text: str, node: ast.AST, pattern: str) -> int:
    rx = re.compile(pattern)
    lines = text.splitlines()
    for no in range(node.lineno, (node.end_lineno or node.lineno) + 1):
        if rx.search(strip_comment(lines[no - 1])):
            return no
    return node.lineno
