"""A cue: a line that multiplies by a literal zero."""

from __future__ import annotations

import re

from debug_agent.cues import cue

ZERO = re.compile(r"\*\s*0(\.0*)?\b(?!\.\d*[1-9])")


@cue("times_zero")
def times_zero(code: str, func: str | None) -> str | None:
    """A product with a literal zero."""
    return "multiplies by a literal zero" if ZERO.search(code) else None
