"""Parent side of the worker: spawn it, talk JSON lines, enforce time limits, survive its crashes."""

from __future__ import annotations

import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from debug_agent.errors import TargetError, WorkerError, from_dict
from debug_agent.schemas import ProbeInfo, ProbeRequest, ProbeResult, Ready, TargetInfo, TargetRef


@dataclass
class Limits:
    load_s: float = 120.0  # importing the target and make_target()
    probe_s: float = 60.0  # one probe
    total_s: float = 600.0  # the whole run
    max_memory: int | None = None  # bytes for the child's heap; None = no cap
    threads: int = field(default_factory=lambda: max(1, min(4, os.cpu_count() or 1)))
    fixed_threads: bool = False  # True when the user chose --threads; else the worker may use fewer


class _Timeout(Exception):
    pass


class _Died(Exception):
    pass


class Runner:
    """One target, one child process at a time. A probe that hangs or crashes costs only itself."""

    def __init__(
        self,
        ref: TargetRef,
        *,
        limits: Limits | None = None,
        seed: int = 0,
        device: str = "cpu",
        cwd: str | None = None,
        on_stderr: Callable[[str], None] | None = None,
    ) -> None:
        self.ref = ref
        self.limits = limits or Limits()
        self.seed = seed
        self.device = device
        self.cwd = cwd
        self.on_stderr = on_stderr
        self.proc: subprocess.Popen[bytes] | None = None
        self.ready: Ready | None = None
        self.started = time.monotonic()
        self.restarts = 0
        self.peak_rss_mb = 0.0  # the largest peak resident memory any worker reported
        self._buf = b""
        self._tail: deque[str] = deque(maxlen=200)
        self._tmp: str | None = None

    # -- lifecycle ---------------------------------------------------------------------------------

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def time_left(self) -> float:
        return self.limits.total_s - (time.monotonic() - self.started)

    def start(self) -> Ready:
        """Spawn the child and load the target. TargetError for a broken target."""
        self._spawn()
        self._send(
            {
                "op": "load",
                "path": self.ref.path,
                "func": self.ref.func,
                "seed": self.seed,
                "threads": self.limits.threads,
                "fixed_threads": self.limits.fixed_threads,
                "device": self.device,
            }
        )
        try:
            msg = self._read(min(self.limits.load_s, max(self.time_left(), 1.0)))
        except _Timeout:
            self._kill()
            raise TargetError(
                f"loading the target took longer than {self.limits.load_s:.0f}s",
                where=self.ref.path,
                fix="make_target() must return quickly: build a small batch, load no full dataset, "
                "or raise --load-timeout",
            ) from None
        except _Died as exc:
            raise TargetError(
                f"the process loading the target died: {exc}",
                where=self.ref.path,
                fix="run `python -c \"import runpy; runpy.run_path('TARGET')\"` to reproduce",
            ) from None
        return self._accept_ready(msg)

    def _accept_ready(self, msg: dict[str, Any], **extra: Any) -> Ready:
        """The worker's first message: a user error to raise as it is, or the Ready (plus `extra` fields)."""
        if msg.get("event") == "error":
            self._kill()
            raise from_dict(msg["error"])
        self._note_rss(msg)
        if msg.get("event") != "ready":
            raise WorkerError(f"unexpected first message from the worker: {msg.get('event')!r}")
        self.ready = Ready(
            info=TargetInfo.model_validate(msg["info"]),
            probes=[ProbeInfo.model_validate(p) for p in msg["probes"]],
            unit_seconds=msg.get("unit_seconds"),
            **extra,
        )
        return self.ready

    def run(self, req: ProbeRequest, budget_s: float | None = None) -> ProbeResult:
        """Run one probe. Timeouts, crashes and OOM kills come back as status 'error'."""
        limit = min(budget_s or self.limits.probe_s, self.limits.probe_s, max(self.time_left(), 0.0))
        if limit <= 0:
            return ProbeResult(
                name=req.name,
                status="error",
                summary="skipped: the run's time limit was reached",
                error="total timeout",
            )
        if self.proc is None or self.proc.poll() is not None:
            self.restarts += 1
            self.start()
        start = time.monotonic()
        # The probe gets most of the limit to wrap up on its own; the rest is our margin to kill it.
        self._send({"op": "run", "name": req.name, "options": req.options, "budget_s": max(limit * 0.8, 0.5)})
        try:
            msg = self._read(limit)
        except _Timeout:
            self._kill()
            return ProbeResult(
                name=req.name,
                status="error",
                seconds=round(time.monotonic() - start, 3),
                summary=f"timed out after {limit:.0f}s; the worker was stopped",
                error=f"timeout after {limit:.1f}s",
            )
        except _Died as exc:
            return ProbeResult(
                name=req.name,
                status="error",
                seconds=round(time.monotonic() - start, 3),
                summary=f"the worker died: {exc}",
                error=str(exc)[:2000],
            )
        if msg.get("event") == "error":
            raise from_dict(msg["error"])
        self._note_rss(msg)
        return ProbeResult.model_validate(msg["result"])

    def _note_rss(self, msg: dict[str, Any]) -> None:
        if isinstance(msg.get("rss_mb"), (int, float)):
            self.peak_rss_mb = max(self.peak_rss_mb, float(msg["rss_mb"]))

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            try:
                self._send({"op": "exit"})
                self.proc.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired, WorkerError):
                pass
        self._kill()
        if self._tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    def stderr_tail(self, lines: int = 20) -> str:
        return "\n".join(list(self._tail)[-lines:])

    # -- internals ---------------------------------------------------------------------------------

    def _spawn(self) -> None:
        self._kill()
        if self._tmp is None:
            self._tmp = tempfile.mkdtemp(prefix="debug-agent-")
        env = dict(os.environ)
        threads = str(self.limits.threads)
        env.update(
            PYTHONDONTWRITEBYTECODE="1",
            PYTHONUNBUFFERED="1",
            TMPDIR=self._tmp,
            OMP_NUM_THREADS=threads,
            MKL_NUM_THREADS=threads,
            DEBUG_AGENT_MAX_MEMORY=str(self.limits.max_memory or 0),
        )
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "debug_agent.isolation.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=self.cwd,
            env=env,
            start_new_session=True,  # its own process group: we can kill it whole
        )
        self._buf = b""
        threading.Thread(target=self._drain, args=(self.proc,), daemon=True).start()

    def _drain(self, proc: subprocess.Popen[bytes]) -> None:
        if proc.stderr is None:
            return
        for raw in iter(proc.stderr.readline, b""):
            line = raw.decode("utf-8", errors="replace").rstrip("\n")
            self._tail.append(line)
            if self.on_stderr:
                self.on_stderr(line)

    def _send(self, obj: dict[str, Any]) -> None:
        if self.proc is None or self.proc.stdin is None:
            raise WorkerError("the worker is not running")
        try:
            self.proc.stdin.write((json.dumps(obj) + "\n").encode())
            self.proc.stdin.flush()
        except BrokenPipeError as exc:
            raise WorkerError("the worker closed its input", fix="see the worker's stderr above") from exc

    def _read(self, timeout: float) -> dict[str, Any]:
        if self.proc is None or self.proc.stdout is None:
            raise _Died("the worker is not running")
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buf:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise _Timeout()
                if not sel.select(left):
                    continue
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    raise _Died(self._death_reason())
                self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        try:
            return json.loads(line)
        except json.JSONDecodeError as exc:
            raise WorkerError(f"the worker sent a malformed message: {line[:200]!r}") from exc

    def _death_reason(self) -> str:
        if self.proc is None:
            return "the worker is not running"
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._kill()
            return "it closed its output and hung"
        time.sleep(0.05)  # let the stderr thread catch the last lines
        if code < 0:
            sig = signal.Signals(-code).name
            why = " (likely out of memory: killed by the system)" if sig == "SIGKILL" else ""
            reason = f"killed by {sig}{why}"
        else:
            reason = f"exited with code {code}"
        tail = self.stderr_tail(8)
        if "MemoryError" in tail or "out of memory" in tail.lower():
            reason += " (out of memory)"
        return reason + (f"; last output:\n{tail}" if tail else "")

    def _kill(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream:
                try:
                    stream.close()
                except OSError:
                    pass
        self.proc = None
