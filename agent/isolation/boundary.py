"""The isolation boundary: run one probe and turn what it raises into a result, blaming the right party.

`run_isolated` is used by both the worker (child process) and the in-process runner. An exception
raised from a frame of the user's code (their target file, model, loss, step) is the user's: the probe
becomes `error` with their file and line. An exception with no frame in user code is a bug of this
tool: the probe becomes `error` marked as an internal error (never blamed on the user), and under
`DEBUG_AGENT_STRICT=1` (the test suite sets it) it is raised instead, so such bugs fail the tests.

May import: schemas, errors, probes.
"""

from __future__ import annotations

import os
import traceback
from typing import Any

from debug_agent import probes
from debug_agent.errors import DebugAgentError, WorkerError
from debug_agent.probes._common import is_user_file
from debug_agent.schemas import ProbeResult, Target

STRICT_ENV = "DEBUG_AGENT_STRICT"


def user_where(exc: BaseException) -> str | None:
    """file:line and code of the innermost frame of the traceback that is the user's code."""
    if isinstance(exc, SyntaxError) and exc.filename:
        return f"{exc.filename}:{exc.lineno}" + (f": {exc.text.strip()}" if exc.text else "")
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if is_user_file(f.filename)]
    if not frames:
        return None
    f = frames[-1]
    return f"{f.filename}:{f.lineno}" + (f": {f.line}" if f.line else "")


def _out_of_memory(exc: BaseException) -> bool:
    return isinstance(exc, MemoryError) or "can't allocate memory" in str(exc)


def error_result(name: str, exc: BaseException) -> ProbeResult:
    """A probe result for an exception raised inside a probe, attributed to the user or to us."""
    where = user_where(exc)
    tb = traceback.format_exception_only(type(exc), exc)[-1].strip()
    if _out_of_memory(exc):
        cap = int(os.environ.get("DEBUG_AGENT_MAX_MEMORY", "0"))
        what = "ran out of memory" + (f" (the --max-memory cap of {cap / 2**30:.1f} GiB was reached)" if cap else "")
    elif where is None:
        frame = traceback.extract_tb(exc.__traceback__)[-1:] or [None]
        at = f" at {os.path.basename(frame[0].filename)}:{frame[0].lineno}" if frame[0] else ""
        what = f"internal error of debug-agent in probe {name!r}{at}: {type(exc).__name__}: {exc} (please report it)"
    else:
        what = f"{type(exc).__name__}: {exc}"
    return ProbeResult(
        name=name, status="error", summary=what[:300], error=(f"{tb} at {where}" if where else tb)[:2000]
    )


def run_isolated(name: str, target: Target, ctx: probes.ProbeContext, options: dict[str, Any] | None) -> ProbeResult:
    """Run one registered probe on `target`; user-code exceptions become an `error` result."""
    try:
        return probes.execute(name, target, ctx, options or {})
    except DebugAgentError:
        raise
    except Exception as exc:  # the isolation boundary: attribute, never crash the run
        if os.environ.get(STRICT_ENV) == "1" and user_where(exc) is None and not _out_of_memory(exc):
            raise WorkerError(
                f"internal error of debug-agent in probe {name!r}: {type(exc).__name__}: {exc}",
                where="".join(traceback.format_exception(exc))[-1500:],
                fix=f"this is a bug in debug-agent, not in your code ({STRICT_ENV}=1 turned it into a failure)",
            ) from exc
        return error_result(name, exc)
