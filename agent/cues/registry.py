"""The cue registry: `@cue` validates and records one static detector; leaf module of the cues room.

May import: schemas, errors. Rule modules import this module; nothing here imports a rule module.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from debug_agent.errors import RegistrationError

Scope = Literal["line", "hunk", "file"]
ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")
DEF_RE = re.compile(r"^\s*(?:async\s+)?def\s+(\w+)|^\s*class\s+(\w+)")


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


def strip_comment(code: str) -> str:
    """Drop a trailing '# comment' (good enough for cue matching; strings with '#' are rare in ML code)."""
    return code.split("#", 1)[0].rstrip()
