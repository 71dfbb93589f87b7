"""What comes back over the wire, checked: a reply is a chat completion or an EndpointError.

Also the hard wall-clock deadline for one request (the call runs in a daemon thread that is
abandoned when the deadline passes, so a server that trickles bytes cannot hold a run), and
Retry-After parsing.

May import: nothing of ours (pydantic only).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from email.utils import parsedate_to_datetime
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

MAX_REPLY_BYTES = 2_000_000  # a chat completion for our schemas is a few kB
R = TypeVar("R")


class EndpointError(Exception):
    """The endpoint answered, but not with a chat completion (HTML, an event stream, binary, too big)."""


class DeadlineExceeded(Exception):
    """The request did not finish within its wall-clock deadline."""


class _Function(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: str = ""
    arguments: str = ""


class _ToolCall(BaseModel):
    model_config = ConfigDict(extra="ignore")
    function: _Function


class _Message(BaseModel):
    model_config = ConfigDict(extra="ignore")
    content: str | None = None
    tool_calls: list[_ToolCall] | None = None


class _Choice(BaseModel):
    model_config = ConfigDict(extra="ignore")
    message: _Message


class _Usage(BaseModel):
    model_config = ConfigDict(extra="ignore")
    prompt_tokens: int = Field(default=0, ge=0)
    completion_tokens: int = Field(default=0, ge=0)


class Completion(BaseModel):
    """The parts of a chat completion we use; anything else in the reply is ignored."""

    model_config = ConfigDict(extra="ignore")
    choices: list[_Choice] = Field(min_length=1)
    usage: _Usage | None = None

    def text(self, tool: bool = False) -> str:
        msg = self.choices[0].message
        if tool and msg.tool_calls:
            return msg.tool_calls[0].function.arguments
        return msg.content or ""


def _describe(body: bytes, content_type: str) -> str:
    head = body[:200].lstrip().lower()
    if "event-stream" in content_type or head.startswith((b"data:", b"event:")):
        return "an event stream (SSE) instead of a chat completion"
    if "html" in content_type or head.startswith((b"<!doctype", b"<html")):
        return "an HTML page instead of a chat completion"
    try:
        body[:4096].decode("utf-8")
    except UnicodeDecodeError:
        return "binary data instead of a chat completion"
    return "a body that is not JSON"


def parse_completion(body: bytes, content_type: str = "") -> Completion:
    """The reply body as a Completion, or EndpointError saying what it was instead."""
    if len(body) > MAX_REPLY_BYTES:
        raise EndpointError(f"a reply of {len(body) / 1e6:.1f} MB (more than {MAX_REPLY_BYTES / 1e6:.0f} MB)")
    try:
        data = json.loads(body.decode("utf-8"), parse_constant=_no_constants)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise EndpointError(_describe(body, content_type)) from None
    if not isinstance(data, dict):
        raise EndpointError("a JSON reply that is not an object")
    try:
        return Completion.model_validate(data)
    except ValidationError as exc:
        raise EndpointError(f"JSON that is not a chat completion ({exc.errors()[0]['msg'][:80]})") from None


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def retry_after(headers: Any) -> float | None:
    """Seconds from a Retry-After (or retry-after-ms) header; None when absent or unreadable."""
    if headers is None:
        return None
    try:
        ms = headers.get("retry-after-ms")
        if ms is not None:
            return max(0.0, float(ms) / 1000)
        value = headers.get("retry-after")
    except (AttributeError, ValueError, TypeError):
        return None
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def with_deadline(fn: Callable[[], R], seconds: float) -> R:
    """fn() in a daemon thread; DeadlineExceeded when it has not returned after `seconds` (it is abandoned)."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 (handed to the caller's thread as is)
            box["error"] = exc

    worker = threading.Thread(target=run, name="llm-request", daemon=True)
    worker.start()
    worker.join(max(0.0, seconds))
    if worker.is_alive():
        raise DeadlineExceeded(f"no complete reply within {seconds:.1f}s")
    if "error" in box:
        raise box["error"]
    return box["value"]
