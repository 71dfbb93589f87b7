"""Real architectures through the real CLI: Hugging Face models from tiny configs (random init, no
downloads) and our own models reproducing real patterns. Healthy -> no false alarm with --all-probes;
an injected user-code bug -> the right cause first. Slow: each case is one `debug-agent ask`."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest

from .cases import CASES, Case

# Cases where a PROBE (not the protocol or the copy layer) still gives a wrong answer, with the reason;
# tracked here as xfail until fixed. Empty: the library-internal broadcast/log(0) (T5), the float32 paths
# (Llama), the within-row head reshape and the labels shifted before a shifting loss head are fixed.
KNOWN_PROBE_FALSE_ALARMS: dict[str, str] = {}


def ask(case: Case) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "DEBUG_AGENT_"))}
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", NO_COLOR="1")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "debug_agent",
            "ask",
            case.symptom,
            "--target",
            case.target_arg(),
            "--format",
            "json",
            "--offline",
            "--all-probes",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    return json.loads(proc.stdout)


def _param(case: Case):
    marks = [pytest.mark.slow]
    if case.needs and importlib.util.find_spec(case.needs) is None:
        marks.append(pytest.mark.skip(reason=f"needs {case.needs} (pip install -e '.[realworld]')"))
    if case.name in KNOWN_PROBE_FALSE_ALARMS:
        marks.append(pytest.mark.xfail(reason=KNOWN_PROBE_FALSE_ALARMS[case.name], strict=False))
    return pytest.param(case, id=case.name.split(" ")[0] + ("" if case.healthy else "-" + case.expected), marks=marks)


@pytest.mark.parametrize("case", [_param(c) for c in CASES if c.healthy])
def test_healthy_model_no_false_alarm(case):
    rep = ask(case)
    errors = {p["name"]: p["summary"] for p in rep["probes"] if p["status"] == "error"}
    assert not errors, errors  # the protocol and the copies work on this model
    assert rep["cause_id"] == "none", (
        rep["cause_id"],
        [(p["name"], p["summary"]) for p in rep["probes"] if p["status"] == "failed"],
    )


@pytest.mark.parametrize("case", [_param(c) for c in CASES if not c.healthy])
def test_injected_bug_ranked_first(case):
    rep = ask(case)
    assert rep["cause_id"] == case.expected, (rep["cause_id"], [h["cause_id"] for h in rep["hypotheses"][:3]])
