"""Chat transcripts: private (0600 in 0700), redacted; --resume notices a missing or changed file and asks."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

from .conftest import EXAMPLES

SECRET = "hf_FAKEchat0123456789abcdefNOTREAL"


def _chat(tmp_path: Path, *args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "DEBUG_AGENT_"))}
    env.update({"XDG_STATE_HOME": str(tmp_path / "state"), "NO_COLOR": "1"})
    return subprocess.run(
        [sys.executable, "-m", "debug_agent", "chat", "--offline", "--format", "json", "--quiet", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )


def test_transcript_is_private_and_redacted(tmp_path):
    proc = _chat(tmp_path, stdin=f"my model predicts the same value for every input, token {SECRET}\n/quit\n")
    assert proc.returncode == 0, proc.stderr
    (transcript,) = (tmp_path / "state" / "debug-agent").glob("chat-*.jsonl")
    assert stat.S_IMODE(transcript.stat().st_mode) == 0o600
    assert stat.S_IMODE(transcript.parent.stat().st_mode) == 0o700
    text = transcript.read_text()
    assert SECRET not in text and "[REDACTED]" in text


def test_resume_says_when_the_diff_is_missing_or_changed_and_asks(tmp_path):
    diff = tmp_path / "change.diff"
    diff.write_text((EXAMPLES / "broadcast_regression" / "change.diff").read_text())
    symptom = "my regression model predicts almost the same value for every input\n"
    proc = _chat(tmp_path, "--diff", "change.diff", stdin=symptom + "/quit\n")
    assert proc.returncode == 0, proc.stderr
    first = json.loads(proc.stdout[proc.stdout.index("{\n") :])

    diff.write_text(diff.read_text().replace("self.net(x)  # (N, 1)", "self.net(x).flatten()"))
    proc = _chat(tmp_path, "--resume", stdin="no\n")
    assert proc.returncode == 0, proc.stderr
    assert "has changed since the session was saved" in proc.stdout and "(yes / no)" in proc.stdout
    assert "Stopped" in proc.stdout and "{\n" not in proc.stdout  # no report when the user says no

    diff.unlink()
    proc = _chat(tmp_path, "--resume", stdin="yes\n/quit\n")
    assert proc.returncode == 0, proc.stderr
    assert "change.diff is missing" in proc.stdout and "Going on" in proc.stdout
    again = json.loads(proc.stdout[proc.stdout.index("{\n") :])
    assert first["cause_id"] and again["cause_id"]
