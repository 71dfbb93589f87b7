"""A local OpenAI-compatible HTTP server for tests: real sockets, the real `openai` client.

Replies come from a queue of scripted items or from a responder function that sees each request:
    {"content": {...} or "text"}        an assistant message (dicts are sent as JSON text)
    {"tool": {...}}                      a tool call with these arguments (for forced tool calls)
    {"status": 400, "error": "..."}      an HTTP error
    {"delay": 2.0, ...}                  wait first (to trip client timeouts)
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = dict[str, Any]


class FakeOpenAI:
    def __init__(self, responder: Callable[[dict[str, Any]], Reply] | None = None) -> None:
        self.replies: deque[Reply] = deque()
        self.requests: list[dict[str, Any]] = []
        self.responder = responder
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> FakeOpenAI:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def queue(self, *replies: Reply) -> FakeOpenAI:
        self.replies.extend(replies)
        return self

    def prompts(self) -> list[str]:
        """Every message content the server received, joined per request."""
        return ["\n".join(str(m.get("content", "")) for m in r.get("messages", [])) for r in self.requests]

    def modes(self) -> list[str]:
        """The structured-output mode of each request: json_schema, json_object(_schema), tool or text."""
        out = []
        for r in self.requests:
            fmt = r.get("response_format") or {}
            kind = fmt.get("type")
            if kind == "json_object" and "schema" in fmt:
                kind = "json_object_schema"
            out.append(kind or ("tool" if r.get("tools") else "text"))
        return out

    def _next(self, body: dict[str, Any]) -> Reply:
        if self.replies:
            return self.replies.popleft()
        if self.responder:
            return self.responder(body)
        return {"status": 500, "error": "no scripted reply left"}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                fake.requests.append(body)
                reply = fake._next(body)
                if reply.get("delay"):
                    time.sleep(reply["delay"])
                if "status" in reply:
                    self._send(reply["status"], {"error": {"message": reply.get("error", "error"), "type": "x"}})
                    return
                message: dict[str, Any] = {"role": "assistant", "content": None}
                if "tool" in reply:
                    name = body.get("tools", [{}])[0].get("function", {}).get("name", "f")
                    message["tool_calls"] = [
                        {
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": name, "arguments": json.dumps(reply["tool"])},
                        }
                    ]
                else:
                    content = reply.get("content", "")
                    message["content"] = content if isinstance(content, str) else json.dumps(content)
                self._send(
                    200,
                    {
                        "id": "chatcmpl-test",
                        "object": "chat.completion",
                        "created": 0,
                        "model": body.get("model", "m"),
                        "choices": [{"index": 0, "message": message, "finish_reason": "stop", "logprobs": None}],
                        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
                    },
                )

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

        return Handler
