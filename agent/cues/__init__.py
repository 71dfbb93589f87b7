"""Static cues: known bug shapes found in the diff and in the target's own source, each with file:line.

The cues room is shaped like `probes/`: `registry.py` holds the `@cue` decorator (a leaf), each rule
family lives in its own module (`model_rules.py`, `training_rules.py`), and `scan.py` runs them.
Built-in rule modules and plug-ins are loaded through the same plug-in hook (`debug_agent.plugins`).
Three scopes:
- line:  `fn(code, func) -> detail | None` on one line (added diff lines and/or source lines);
         `func` is the enclosing function's name when known.
- hunk:  `fn(hunk) -> [(DiffLine, detail)]` on a diff hunk (what was removed and what replaced it).
- file:  `fn(path, text) -> [(line, detail)]` on a whole source file (function-level absences).

May import: schemas, errors, plugins. Nothing in the engine's or CLI's rooms.
"""

from __future__ import annotations

from debug_agent.cues.registry import CUES, CueSpec, cue, strip_comment
from debug_agent.cues.scan import MAX_SOURCE_BYTES, registered_cues, scan_diff, scan_files, scan_source

__all__ = [
    "CUES",
    "MAX_SOURCE_BYTES",
    "CueSpec",
    "registered_cues",
    "cue",
    "scan_diff",
    "scan_files",
    "scan_source",
    "strip_comment",
]
