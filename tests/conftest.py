"""Shared fixtures: the CLI in a real subprocess, isolated working folders, probe helpers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
# An exception inside a probe with no frame in user code is a bug of ours: in tests it fails loudly.
os.environ["DEBUG_AGENT_STRICT"] = "1"
EXAMPLES = ROOT / "examples"


@pytest.fixture
def run_cli(tmp_path: Path):
    """Run `debug-agent ARGS` as a subprocess in an empty folder; returns CompletedProcess (text)."""

    def run(
        *args: str,
        input: str | None = None,
        cwd: Path | None = None,
        env: dict[str, str] | None = None,
        timeout: float = 180,
    ) -> subprocess.CompletedProcess[str]:
        full_env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "DEBUG_AGENT_"))}
        full_env.update({"NO_COLOR": "1", "COLUMNS": "120", "DEBUG_AGENT_STRICT": "1"})
        full_env.update(env or {})
        return subprocess.run(
            [sys.executable, "-m", "debug_agent", *args],
            input=input,
            capture_output=True,
            text=True,
            cwd=cwd or tmp_path,
            env=full_env,
            timeout=timeout,
            stdin=None if input is not None else subprocess.DEVNULL,
        )

    return run


def report_of(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.fixture(scope="session")
def probes_registry():
    from debug_agent.isolation import probe_registry

    return probe_registry()


def default_sigint() -> None:
    """preexec_fn for a child the test interrupts with SIGINT: a suite started in the background (`nohup
    ... &`) runs with SIGINT ignored, and children inherit that; Ctrl-C tests must not depend on it."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
