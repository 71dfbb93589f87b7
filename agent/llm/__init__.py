"""The OpenAI-compatible LLM backend: structured answers with fallbacks, retries, budgets, redaction.

Structured output is tried in this order, and what an endpoint rejects is remembered for the rest
of the run: `chat.completions.parse` with a json_schema response format; JSON mode with the schema
attached (llama.cpp constrains generation with it); plain JSON mode with the schema in the prompt;
a forced tool call; plain text with the first JSON object extracted. Every reply is first checked
to be a chat completion (wire.py: an HTML page, an event stream, binary or a huge body is an
endpoint error, retried like a 5xx); every answer is then validated against the schema, and an
invalid one is asked again with the validation error (a little warmer each time). Each request
runs under a hard wall-clock deadline (the smaller of --llm-timeout's remainder and the request
timeout) however slowly bytes arrive; timeouts, 429 (Retry-After honoured when it fits the
budget), 5xx and non-completions are retried with backoff. Budgets are per turn (one `ask`, one
chat /run). Whatever fails, the caller gets an LLMError (LLMUnavailable when the endpoint gave no
usable reply) and falls back to the offline engine.

May import: schemas, errors.
"""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from debug_agent.errors import LLMError, LLMUnavailable, UsageError, validation_problems
from debug_agent.llm.redact import redact, strip_userinfo
from debug_agent.llm.wire import (
    Completion,
    DeadlineExceeded,
    EndpointError,
    parse_completion,
    retry_after,
    with_deadline,
)

__all__ = ["LLM", "MODES", "LLMConfig", "Usage", "first_json_object", "redact", "strip_userinfo"]

T = TypeVar("T", bound=BaseModel)
# json_object_schema is JSON mode with the schema attached to response_format, an extension that
# llama.cpp's server uses to constrain generation with a grammar; servers that refuse it fall through.
MODES = ("json_schema", "json_object_schema", "json_object", "tool", "text")
DEFAULT_MODEL = "gpt-4o-mini"


def first_json_object(text: str) -> str:
    """The first balanced {...} in a reply (for servers that only do plain text)."""
    start = text.find("{")
    while start != -1:
        depth, in_str, esc = 0, False, False
        for i in range(start, len(text)):
            ch = text[i]
            if in_str:
                esc = ch == "\\" and not esc
                if ch == '"' and not esc:
                    in_str = False
                elif ch != "\\":
                    esc = False
                continue
            if ch == '"':
                in_str = True
            elif ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    return text[start : i + 1]
        start = text.find("{", start + 1)
    raise ValueError("no JSON object in the reply")


@dataclass
class LLMConfig:
    base_url: str | None
    api_key: str
    model: str
    timeout_s: float = 60.0  # one request (local CPU servers are slow)
    token_budget: int = 12_000  # per ask, prompt + completion
    time_budget_s: float = 120.0  # per ask, all requests
    attempts: int = 3  # validation re-asks
    transient_retries: int = 3
    required: bool = False  # --llm: fail (exit 3) instead of falling back
    send_code: bool = True  # --no-code: send no diff or source text

    @classmethod
    def from_env(
        cls,
        *,
        offline: bool = False,
        model: str | None = None,
        base_url: str | None = None,
        required: bool = False,
        token_budget: int | None = None,
        time_budget_s: float | None = None,
        send_code: bool = True,
    ) -> LLMConfig | None:
        """None when offline or when no endpoint is configured (OPENAI_BASE_URL / OPENAI_API_KEY)."""
        if offline:
            if required:
                raise UsageError("--offline and --llm contradict each other")
            return None
        base = base_url or os.environ.get("OPENAI_BASE_URL") or None
        key = os.environ.get("OPENAI_API_KEY") or None
        if not base and not key:
            if required:
                raise LLMUnavailable(
                    "an LLM was required (--llm) but none is configured",
                    fix="set OPENAI_BASE_URL (and OPENAI_API_KEY if the server needs one)",
                )
            return None
        cfg = cls(
            base_url=base,
            api_key=key or "not-needed",
            model=model or os.environ.get("DEBUG_AGENT_MODEL") or DEFAULT_MODEL,
            required=required,
            send_code=send_code,
        )
        if token_budget is not None:
            cfg.token_budget = token_budget
        if time_budget_s is not None:
            cfg.time_budget_s = time_budget_s
        return cfg


@dataclass
class Usage:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    redacted: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


def _status(exc: BaseException) -> int | None:
    return getattr(exc, "status_code", None)


class _NextMode(Exception):
    """The endpoint refused this structured-output mode (or kept failing in it): try the next."""

    def __init__(self, status: int | None) -> None:
        super().__init__(status)
        self.status = status


def _transient(exc: BaseException) -> bool:
    import openai

    if isinstance(exc, (EndpointError, DeadlineExceeded, openai.APITimeoutError, openai.APIConnectionError)):
        return True
    return isinstance(exc, openai.APIStatusError) and ((_status(exc) or 0) >= 500 or _status(exc) in (408, 409, 429))


def _why(exc: BaseException, limit: float) -> str:
    """A short description of an endpoint failure, without URLs (they may hold credentials)."""
    import openai

    if isinstance(exc, EndpointError):
        return f"the endpoint answered with {exc}"
    if isinstance(exc, (DeadlineExceeded, openai.APITimeoutError)):
        return f"the LLM did not answer within {limit:.3g}s"
    if isinstance(exc, openai.APIStatusError):
        return f"the endpoint answered HTTP {_status(exc)}"
    return f"the endpoint is unreachable ({type(exc).__name__})"


class LLM:
    """One endpoint, for one run. Remembers which structured-output mode the endpoint accepts."""

    def __init__(self, cfg: LLMConfig) -> None:
        self.cfg = cfg
        self.client = self._client()
        self.mode = 0
        self.usage = Usage()
        self.started = time.monotonic()
        self.turn_tokens = 0  # tokens used before this turn

    def _client(self) -> Any:
        from openai import OpenAI

        return OpenAI(base_url=self.cfg.base_url, api_key=self.cfg.api_key, timeout=self.cfg.timeout_s, max_retries=0)

    @property
    def shown_base_url(self) -> str | None:
        """The base URL as reports and logs may show it: no user:password@, no key in the query."""
        return strip_userinfo(self.cfg.base_url)

    def new_turn(self) -> None:
        """Start the time and token budgets afresh (one `ask`, one chat /run)."""
        self.started = time.monotonic()
        self.turn_tokens = self.usage.tokens

    def remaining(self) -> float:
        return self.cfg.time_budget_s - (time.monotonic() - self.started)

    # -- public ------------------------------------------------------------------------------------

    def ask(self, schema: type[T], system: str, user: str) -> T:
        """A validated `schema` instance, or LLMError (LLMUnavailable when the endpoint gave no usable reply)."""
        user, n = redact(user)  # the callers redact what they put in; this pass catches anything else
        self.usage.redacted += n
        messages: list[dict[str, Any]] = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        last = ""
        for attempt in range(self.cfg.attempts):
            temperature = round(0.2 + 0.3 * attempt, 2)
            raw = self._complete(schema, messages, temperature)
            try:
                return schema.model_validate_json(raw if MODES[self.mode] != "text" else first_json_object(raw))
            except (ValidationError, ValueError) as exc:
                last = (
                    str(exc).splitlines()[0]
                    if isinstance(exc, ValueError) and not isinstance(exc, ValidationError)
                    else validation_problems(exc, limit=5)
                )
                self.usage.notes.append(f"LLM answer {attempt + 1} did not validate ({last[:120]}); asked again")
                messages += [
                    {"role": "assistant", "content": raw[:4000]},
                    {
                        "role": "user",
                        "content": f"That reply is not valid: {last[:500]}. Reply again with only a "
                        f"JSON object matching the schema.",
                    },
                ]
        raise LLMError(f"the LLM gave no valid {schema.__name__} in {self.cfg.attempts} attempts: {last[:200]}")

    # -- internals ---------------------------------------------------------------------------------

    def _budget(self) -> None:
        if self.usage.tokens - self.turn_tokens >= self.cfg.token_budget:
            raise LLMError(f"the LLM token budget ({self.cfg.token_budget}) is spent")
        if self.remaining() < 0.2:
            raise LLMError(f"the LLM time budget ({self.cfg.time_budget_s:g}s) is spent")

    def _complete(self, schema: type[BaseModel], messages: list[dict[str, Any]], temperature: float) -> str:
        while True:
            mode = MODES[self.mode]
            try:
                return self._with_retries(mode, schema, messages, temperature)
            except _NextMode as exc:
                if self.mode == len(MODES) - 1:
                    raise LLMError(
                        f"the endpoint rejected every request form: HTTP {exc.status}",
                        fix="check --model and the server's logs",
                    ) from None
                self.usage.notes.append(f"endpoint rejected {mode} (HTTP {exc.status}); using {MODES[self.mode + 1]}")
                self.mode += 1

    def _with_retries(
        self, mode: str, schema: type[BaseModel], messages: list[dict[str, Any]], temperature: float
    ) -> str:
        import openai

        last: BaseException | None = None
        for attempt in range(max(1, self.cfg.transient_retries)):
            self._budget()
            try:
                return self._call(mode, schema, messages, temperature)
            except (openai.BadRequestError, openai.UnprocessableEntityError, openai.NotFoundError) as exc:
                if isinstance(exc, openai.NotFoundError) and mode == "text":
                    raise LLMError("the endpoint answered HTTP 404", fix="check OPENAI_BASE_URL and --model") from None
                raise _NextMode(_status(exc)) from None
            except openai.APIStatusError as exc:
                if not _transient(exc):
                    raise LLMError(f"the LLM endpoint answered HTTP {_status(exc)}") from None
                last = exc
            except (EndpointError, DeadlineExceeded, openai.APITimeoutError, openai.APIConnectionError) as exc:
                last = exc
            if attempt + 1 < self.cfg.transient_retries and not self._wait(last, attempt):
                break
        if isinstance(last, openai.APIStatusError) and _status(last) in (500, 501):
            raise _NextMode(_status(last))  # some servers answer 500 to a request form they do not support
        raise LLMUnavailable(
            f"{_why(last, min(self.cfg.timeout_s, self.cfg.time_budget_s)) if last else 'no reply'} "
            f"({self.usage.calls} call(s))",
            fix="check OPENAI_BASE_URL and the server, raise --llm-timeout, or run with --offline",
        )

    def _wait(self, exc: BaseException | None, attempt: int) -> bool:
        """Sleep before the next try (Retry-After when given); False when that would overrun the budget."""
        wanted = retry_after(getattr(getattr(exc, "response", None), "headers", None))
        delay = wanted if wanted is not None else min(2.0, 0.2 * 2**attempt)
        if delay > self.remaining() - 0.5:
            if wanted is not None:
                self.usage.notes.append(f"the endpoint asked to retry after {wanted:g}s, past the LLM time budget")
            return False
        time.sleep(delay)
        return True

    def _call(self, mode: str, schema: type[BaseModel], messages: list[dict[str, Any]], temperature: float) -> str:
        from openai.lib._parsing import type_to_response_format_param

        start = time.monotonic()
        limit = max(0.1, min(self.cfg.timeout_s, self.remaining()))
        kwargs: dict[str, Any] = {
            "model": self.cfg.model,
            "temperature": temperature,
            "max_tokens": min(1000, max(256, self.cfg.token_budget - (self.usage.tokens - self.turn_tokens))),
            "timeout": limit,
            "messages": messages,
        }
        schema_json = json.dumps(schema.model_json_schema())
        if mode == "json_schema":
            kwargs["response_format"] = type_to_response_format_param(schema)
        elif mode in ("json_object", "json_object_schema"):
            kwargs["messages"] = messages + [
                {"role": "user", "content": f"Answer with a JSON object matching: {schema_json}"}
            ]
            fmt: dict[str, Any] = {"type": "json_object"}
            if mode == "json_object_schema":
                fmt["schema"] = schema.model_json_schema()
            kwargs["response_format"] = fmt
        elif mode == "tool":
            tool = {"type": "function", "function": {"name": schema.__name__, "parameters": schema.model_json_schema()}}
            kwargs["tools"] = [tool]
            kwargs["tool_choice"] = {"type": "function", "function": {"name": schema.__name__}}
        else:
            kwargs["messages"] = messages + [
                {"role": "user", "content": f"Answer with only a JSON object matching: {schema_json}"}
            ]

        def request() -> tuple[bytes, str]:
            raw = self.client.chat.completions.with_raw_response.create(**kwargs)
            return raw.content, raw.headers.get("content-type", "")

        try:
            body, ctype = with_deadline(request, limit)
        except DeadlineExceeded:
            self._abandon()
            raise
        finally:
            self.usage.calls += 1
            self.usage.seconds += time.monotonic() - start
        reply: Completion = parse_completion(body, ctype)
        if reply.usage is not None:
            self.usage.prompt_tokens += reply.usage.prompt_tokens
            self.usage.completion_tokens += reply.usage.completion_tokens
        return reply.text(tool=mode == "tool")

    def _abandon(self) -> None:
        """Leave a stalled request behind: a fresh client for what follows; the old one is closed in the
        background (closing waits for the stalled connection), and its thread ends when its socket does."""
        old, self.client = self.client, self._client()

        def close() -> None:
            try:
                old.close()
            except (OSError, RuntimeError):
                pass

        threading.Thread(target=close, name="llm-close", daemon=True).start()
