"""The OpenAI-compatible LLM backend: structured answers with fallbacks, retries, budgets, redaction.

Structured output is tried in this order, and what an endpoint rejects is remembered for the rest
of the run: `chat.completions.parse` with a json_schema response format; JSON mode with the schema
attached (llama.cpp constrains generation with it); plain JSON mode with the schema in the prompt;
a forced tool call; plain text with the first JSON object extracted. Every answer is
validated client-side; an invalid one is asked again with the validation error (a little warmer
each time). Timeouts, 429 and 5xx are retried with backoff. Whatever fails, the caller gets an
LLMError and falls back to the offline engine.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from tenacity import RetryError, Retrying, retry_if_exception, stop_after_attempt, wait_exponential

from debug_agent.errors import LLMError, LLMUnavailable, UsageError, validation_problems

T = TypeVar("T", bound=BaseModel)
# json_object_schema is JSON mode with the schema attached to response_format, an extension that
# llama.cpp's server uses to constrain generation with a grammar; servers that refuse it fall through.
MODES = ("json_schema", "json_object_schema", "json_object", "tool", "text")
DEFAULT_MODEL = "gpt-4o-mini"

SECRET_PATTERNS = [
    re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", re.S),
    re.compile(r"\bsk-[A-Za-z0-9_-]{16,}"),
    re.compile(r"\bAKIA[0-9A-Z]{16}\b"),
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}"),
    re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"),
    re.compile(r"\bhf_[A-Za-z0-9]{20,}"),
    re.compile(r"\bAIza[0-9A-Za-z_-]{35}"),
    re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/-]{16,}=*"),
]
ASSIGNED_SECRET = re.compile(
    r"(?i)\b([\w.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key)[\w.-]*)"
    r"(\s*[:=]\s*)(['\"]?)([^'\"\s,;]{4,})\3"
)


def redact(text: str) -> tuple[str, int]:
    """Replace API keys, tokens, passwords and private keys with [REDACTED]; returns (text, count)."""
    count = 0
    for rx in SECRET_PATTERNS:
        text, n = rx.subn("[REDACTED]", text)
        count += n
    text, n = ASSIGNED_SECRET.subn(lambda m: f"{m.group(1)}{m.group(2)}{m.group(3)}[REDACTED]{m.group(3)}", text)
    return text, count + n


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
    notes: list[str] = field(default_factory=list)

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


def _status(exc: BaseException) -> int | None:
    return getattr(exc, "status_code", None)


def _transient(exc: BaseException) -> bool:
    import openai

    if isinstance(exc, (openai.APITimeoutError, openai.APIConnectionError, openai.RateLimitError)):
        return True
    return isinstance(exc, openai.APIStatusError) and (_status(exc) or 0) >= 500


class LLM:
    """One endpoint, for one run. Remembers which structured-output mode the endpoint accepts."""

    def __init__(self, cfg: LLMConfig) -> None:
        from openai import OpenAI

        self.cfg = cfg
        self.client = OpenAI(base_url=cfg.base_url, api_key=cfg.api_key, timeout=cfg.timeout_s, max_retries=0)
        self.mode = 0
        self.usage = Usage()
        self.started = time.monotonic()

    # -- public ------------------------------------------------------------------------------------

    def ask(self, schema: type[T], system: str, user: str) -> T:
        """A validated `schema` instance, or LLMError (LLMUnavailable when the endpoint cannot be reached)."""
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
                        "content": f"That reply is not valid: {last}. Reply again with only a "
                        f"JSON object matching the schema.",
                    },
                ]
        raise LLMError(f"the LLM gave no valid {schema.__name__} in {self.cfg.attempts} attempts: {last[:200]}")

    # -- internals ---------------------------------------------------------------------------------

    def _budget(self) -> None:
        if self.usage.tokens >= self.cfg.token_budget:
            raise LLMError(f"the LLM token budget ({self.cfg.token_budget}) is spent")
        if time.monotonic() - self.started >= self.cfg.time_budget_s:
            raise LLMError(f"the LLM time budget ({self.cfg.time_budget_s:.0f}s) is spent")

    def _complete(self, schema: type[BaseModel], messages: list[dict[str, Any]], temperature: float) -> str:
        import openai

        while True:
            mode = MODES[self.mode]
            try:
                return self._with_retries(mode, schema, messages, temperature)
            except (
                openai.BadRequestError,
                openai.UnprocessableEntityError,
                openai.NotFoundError,
                openai.InternalServerError,
            ) as exc:
                if self.mode == len(MODES) - 1 or isinstance(exc, openai.NotFoundError) and mode == "text":
                    raise LLMError(
                        f"the endpoint rejected the request: HTTP {_status(exc)}",
                        fix="check --model and the server's logs",
                    ) from exc
                self.usage.notes.append(f"endpoint rejected {mode} (HTTP {_status(exc)}); using {MODES[self.mode + 1]}")
                self.mode += 1
            except openai.APITimeoutError as exc:  # reachable but slow: not "unavailable"
                raise LLMError(
                    f"the LLM did not answer within {self.cfg.timeout_s:.0f}s",
                    fix="use a faster model or endpoint, or raise --llm-timeout",
                ) from exc
            except (openai.APIConnectionError, openai.RateLimitError) as exc:
                raise LLMUnavailable(
                    f"the LLM endpoint is unreachable: {type(exc).__name__}",
                    fix="check OPENAI_BASE_URL, or run with --offline",
                ) from exc
            except openai.APIStatusError as exc:
                raise LLMError(f"the LLM endpoint answered HTTP {_status(exc)}") from exc

    def _with_retries(
        self, mode: str, schema: type[BaseModel], messages: list[dict[str, Any]], temperature: float
    ) -> str:
        retrying = Retrying(
            stop=stop_after_attempt(self.cfg.transient_retries),
            wait=wait_exponential(multiplier=0.2, max=2.0),
            retry=retry_if_exception(_transient),
            reraise=True,
        )
        try:
            for attempt in retrying:
                with attempt:
                    self._budget()
                    return self._call(mode, schema, messages, temperature)
        except RetryError as exc:  # reraise=True makes this unreachable in practice
            raise LLMError("retries exhausted") from exc
        raise LLMError("retries exhausted")

    def _call(self, mode: str, schema: type[BaseModel], messages: list[dict[str, Any]], temperature: float) -> str:
        start = time.monotonic()
        kwargs: dict[str, Any] = {
            "model": self.cfg.model,
            "temperature": temperature,
            "max_tokens": min(1000, max(256, self.cfg.token_budget - self.usage.tokens)),
            # never wait past the run's LLM time budget
            "timeout": max(1.0, min(self.cfg.timeout_s, self.cfg.time_budget_s - (time.monotonic() - self.started))),
        }
        schema_json = json.dumps(schema.model_json_schema())
        try:
            if mode == "json_schema":
                resp = self.client.chat.completions.parse(messages=messages, response_format=schema, **kwargs)
                msg = resp.choices[0].message
                text = msg.content or ""
            elif mode in ("json_object", "json_object_schema"):
                msgs = messages + [{"role": "user", "content": f"Answer with a JSON object matching: {schema_json}"}]
                fmt: dict[str, Any] = {"type": "json_object"}
                if mode == "json_object_schema":
                    fmt["schema"] = schema.model_json_schema()
                resp = self.client.chat.completions.create(messages=msgs, response_format=fmt, **kwargs)  # type: ignore[arg-type]
                text = resp.choices[0].message.content or ""
            elif mode == "tool":
                tool = {
                    "type": "function",
                    "function": {"name": schema.__name__, "parameters": schema.model_json_schema()},
                }
                resp = self.client.chat.completions.create(
                    messages=messages,
                    tools=[tool],
                    tool_choice={"type": "function", "function": {"name": schema.__name__}},
                    **kwargs,
                )
                calls = resp.choices[0].message.tool_calls or []
                text = calls[0].function.arguments if calls else (resp.choices[0].message.content or "")
            else:
                msgs = messages + [
                    {"role": "user", "content": f"Answer with only a JSON object matching: {schema_json}"}
                ]
                resp = self.client.chat.completions.create(messages=msgs, **kwargs)
                text = resp.choices[0].message.content or ""
        except ValidationError as exc:  # parse() validates too; surface it as an invalid answer
            resp, text = None, json.dumps({"_invalid": str(exc)[:500]})
        finally:
            self.usage.calls += 1
            self.usage.seconds += time.monotonic() - start
        usage = getattr(resp, "usage", None)
        if usage is not None:
            self.usage.prompt_tokens += int(getattr(usage, "prompt_tokens", 0) or 0)
            self.usage.completion_tokens += int(getattr(usage, "completion_tokens", 0) or 0)
        return text
