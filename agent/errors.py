"""Every error debug-agent raises on purpose. Only the CLI turns them into messages and exit codes.

A leaf module: imports nothing of ours, so the probes and the worker may use it too.
"""

from __future__ import annotations

from typing import Any


class DebugAgentError(Exception):
    """Base class. `what` says what is wrong, `where` points at it, `fix` says how to fix it."""

    exit_code = 2
    label = "error"

    def __init__(self, what: str, *, where: str | None = None, fix: str | None = None) -> None:
        super().__init__(what)
        self.what = what
        self.where = where
        self.fix = fix

    def __str__(self) -> str:
        parts = [self.what]
        if self.where:
            parts.append(f"  at {self.where}")
        if self.fix:
            parts.append(f"  fix: {self.fix}")
        return "\n".join(parts)

    def to_dict(self) -> dict[str, str | None]:
        return {"type": type(self).__name__, "what": self.what, "where": self.where, "fix": self.fix}


class UsageError(DebugAgentError):
    """Flags that do not fit together, unknown names, missing arguments."""

    label = "usage error"


class InputError(DebugAgentError):
    """A symptom, diff or report file that cannot be used as given."""

    label = "input error"


class TargetError(DebugAgentError):
    """The user's target file or `make_target()` breaks the target protocol."""

    label = "target error"


class RegistrationError(DebugAgentError):
    """A probe, cue or catalog entry was registered wrongly; the message names the culprit."""

    exit_code = 1
    label = "registration error"


class CatalogError(DebugAgentError):
    """The failure-mode catalog file is malformed or inconsistent with the registries."""

    exit_code = 1
    label = "catalog error"


class WorkerError(DebugAgentError):
    """The child process that runs user code broke its protocol or could not start."""

    exit_code = 1
    label = "worker error"


class LLMError(DebugAgentError):
    """The LLM endpoint failed or answered with something that could not be used."""

    exit_code = 3
    label = "LLM error"


class LLMUnavailable(LLMError):
    """An LLM endpoint was required (--llm) but cannot be reached."""


ERROR_TYPES: dict[str, type[DebugAgentError]] = {
    cls.__name__: cls
    for cls in (UsageError, InputError, TargetError, RegistrationError, CatalogError, WorkerError, LLMError)
}


def validation_problems(exc: Any, limit: int | None = None, default_loc: str = "") -> str:
    """A pydantic ValidationError as one line: `loc: message; loc: message` (the one formatter for all rooms)."""
    parts = []
    for err in exc.errors()[:limit]:
        loc = ".".join(map(str, err["loc"])) or default_loc
        msg = str(err["msg"]).removeprefix("Value error, ")
        parts.append(f"{loc}: {msg}" if loc else msg)
    return "; ".join(parts)


def from_dict(data: dict[str, str | None]) -> DebugAgentError:
    """Rebuild an error sent across the worker pipe."""
    cls = ERROR_TYPES.get(str(data.get("type")), WorkerError)
    return cls(str(data.get("what") or "unknown error"), where=data.get("where"), fix=data.get("fix"))


class CopyNotIsolated(Exception):  # noqa: N818 - reads as a statement in reports
    """A probe's copy of the user's objects would share state with the originals.

    Not a DebugAgentError: the target is usable, but a probe that meets this becomes an `error`
    result with the reason (which attribute leaks), never evidence.
    """


class ForeignOptimizer(CopyNotIsolated):
    """The optimizer factory returned an optimizer over tensors of neither the model it was given nor the
    target's own model: an optimizer built on another instance of the model. Stepping it would train
    something else, so probes that train are an `error`; step_audit reports it as its finding."""
