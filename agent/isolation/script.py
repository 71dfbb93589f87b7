"""Run the user's training script in the worker under an Observer, bounded by steps and time.

The script runs as `__main__` in this (child) process, in the user's working directory, with
`sys.argv` as it expects and stdin on /dev/null; the Observer's hooks are installed before its first
line. The run ends at the step bound (StepLimitReached raised into the script), at the time bound
(SIGALRM raises TimeLimitReached), when the script finishes or calls sys.exit, or when it raises.
Processes the script started (DataLoader workers, subprocesses) are killed afterwards; the parent
kills the whole process group at the end as well.

May import: torch, schemas, errors, the isolation room's own modules.
"""

from __future__ import annotations

import os
import runpy
import signal
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from typing import Any

from debug_agent.errors import TargetError
from debug_agent.isolation.boundary import user_where
from debug_agent.isolation.observe import Intervention, Observer, StepLimitReached
from debug_agent.schemas import Site, TrainCommand, TrainObservation


class TimeLimitReached(BaseException):  # noqa: N818 - a stop signal
    """Raised into the script by SIGALRM when the time bound is reached."""


@dataclass
class ScriptRun:
    observer: Observer
    observation: TrainObservation


def _on_alarm(signum: int, frame: Any) -> None:
    raise TimeLimitReached()


def _environment(cmd: TrainCommand) -> None:
    if cmd.launcher == "torchrun":
        os.environ.update(RANK="0", LOCAL_RANK="0", WORLD_SIZE="1", LOCAL_WORLD_SIZE="1", GROUP_RANK="0")
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        os.environ.setdefault("MASTER_PORT", str(29500 + os.getpid() % 1000))
    sys.argv = cmd.sys_argv
    if cmd.kind == "script" and cmd.path:
        folder = os.path.dirname(os.path.abspath(cmd.path))
    else:
        folder = os.getcwd()
    if folder not in sys.path:
        sys.path.insert(0, folder)
    sys.dont_write_bytecode = True


def _site(where: str | None) -> Site | None:
    if not where:
        return None
    loc, _, code = where.partition(": ")
    path, _, line = loc.rpartition(":")
    try:
        return Site(
            file=os.path.relpath(path) if not os.path.relpath(path).startswith("..") else path,
            line=int(line),
            code=code[:200],
        )
    except ValueError:
        return None


def run_script(
    cmd: TrainCommand, *, steps: int, timeout_s: float, intervention: Intervention | None = None
) -> ScriptRun:
    """Run the command once under observation. The observation records how and why it ended."""
    observer = Observer(max_steps=steps, intervention=intervention)
    _environment(cmd)
    old = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, max(timeout_s, 0.1))
    ended, code, error, where = "finished", None, None, None
    started = time.monotonic()
    try:
        with observer:
            if cmd.kind == "module" and cmd.module:
                runpy.run_module(cmd.module, run_name="__main__", alter_sys=True)
            else:
                runpy.run_path(cmd.path or "", run_name="__main__")
    except StepLimitReached:
        ended = "step_limit"
    except TimeLimitReached:
        ended = "time_limit"
    except SystemExit as exc:
        ended = "exit"
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException as exc:  # the user's script raised: a finding about their run, reported as such
        ended, error = "crash", f"{type(exc).__name__}: {exc}"[:500]
        where = user_where(exc)
        if where is None:
            tb = traceback.extract_tb(exc.__traceback__)
            where = f"{tb[-1].filename}:{tb[-1].lineno}" if tb else None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        observer.remove()
        reap_children()
    obs = observer.observation()
    obs.command = cmd
    obs.intervention = intervention.kind if intervention else None
    obs.ended, obs.exit_code, obs.error, obs.error_where = ended, code, error, _site(where)  # type: ignore[assignment]
    obs.seconds = round(time.monotonic() - started, 3)
    return ScriptRun(observer, obs)


def check_started(run: ScriptRun, timeout_s: float) -> None:
    """A run that never reached a training step cannot be diagnosed: say why, in the user's terms."""
    obs = run.observation
    if obs.steps:
        return
    name = (obs.command.display() if obs.command else "the script")[:200]
    where = f"{obs.error_where.file}:{obs.error_where.line}: {obs.error_where.code}" if obs.error_where else None
    if obs.ended == "crash":
        raise TargetError(
            f"the training script raised {obs.error} before its first training step",
            where=where,
            fix="fix the error shown (it is in your script); `" + name + "` must run on its own",
        )
    if obs.ended == "time_limit":
        raise TargetError(
            f"the training script took no training step within {timeout_s:.0f} s",
            where=name,
            fix="raise --timeout, or make the script reach its first optimizer step sooner (smaller data, fewer "
            "set-up steps)",
        )
    how = "finished" if obs.ended == "finished" else f"exited with code {obs.exit_code}"
    raise TargetError(
        f"the training script {how} without taking a training step (no optimizer step, no parameter update "
        "after a backward pass)",
        where=name,
        fix="point debug-agent at the command that trains (check its arguments: the script may have only "
        "printed its help or stopped early)",
    )


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[-1].split()
        if len(fields) > 1 and int(fields[1]) == pid:
            out.append(int(entry))
    return out


def reap_children() -> None:
    """Kill every process this one started (DataLoader workers, subprocesses), and theirs.

    The DataLoader's SIGCHLD handler raises "worker killed" in this process when a worker dies, wherever this
    process happens to be by then (even after the run was recorded), so the default handler goes back first.
    """
    if hasattr(signal, "SIGCHLD") and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    stack = _children(os.getpid())
    seen: list[int] = []
    while stack:
        pid = stack.pop()
        seen.append(pid)
        stack += _children(pid)
    for pid in reversed(seen):
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    for pid in seen:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass
