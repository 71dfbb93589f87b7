"""`debug-agent chat` driven through scripted stdin: offline, with the fake LLM server, resumed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from .conftest import EXAMPLES, default_sigint
from .fake_openai import FakeOpenAI
from .test_llm import env, responder


def chat(run_cli, tmp_path, script: str, *args: str, extra_env: dict[str, str] | None = None):
    return run_cli("chat", *args, input=script, env={"XDG_STATE_HOME": str(tmp_path / "state"), **(extra_env or {})})


def test_offline_chat_asks_discriminating_questions_and_ends_with_the_report(run_cli, tmp_path):
    target = EXAMPLES / "eval_in_train_mode" / "target.py"
    script = (
        "\n".join(
            [
                "validation accuracy of the same checkpoint jumps around between runs",
                "yes",
                f"/target {target}",
                "/run",
                "/quit",
            ]
        )
        + "\n"
    )
    proc = chat(run_cli, tmp_path, script, "--format", "json", "-o", "final.json")
    assert proc.returncode == 0, proc.stderr
    assert "Do two evaluations of the same checkpoint" in proc.stdout
    assert "`mode.train_at_eval`" in proc.stdout
    report = json.loads((tmp_path / "final.json").read_text())
    assert report["cause_id"] == "mode.train_at_eval"
    assert any("the user answered yes" in e for e in report["evidence"])
    transcripts = list((tmp_path / "state" / "debug-agent").glob("chat-*.jsonl"))
    assert len(transcripts) == 1
    kinds = [json.loads(line)["t"] for line in transcripts[0].read_text().splitlines()]
    assert kinds.count("user") == 5 and "agent" in kinds


def test_chat_without_a_target_ranks_from_words_and_answers(run_cli, tmp_path):
    script = "my model's loss is nan after some steps\nyes\nyes\nskip\n/report json\n/quit\n"
    proc = chat(run_cli, tmp_path, script, "--quiet")
    assert proc.returncode == 0, proc.stderr
    start = proc.stdout.index("{\n")
    report = json.loads(proc.stdout[start : proc.stdout.index("\n}", start) + 2])
    assert report["cause_id"] in {"numeric.unstable", "optim.lr_too_high", "grad.exploding", "loss.all_masked"}


def test_chat_with_the_fake_llm_server(run_cli, tmp_path):
    script = "my regression model predicts almost the same value for every input\nyes\n/run\n/quit\n"
    with FakeOpenAI(responder) as srv:
        proc = chat(
            run_cli,
            tmp_path,
            script,
            "--target",
            str(EXAMPLES / "broadcast_regression" / "target.py"),
            "--format",
            "json",
            "-o",
            "r.json",
            extra_env=env(srv),
        )
    assert proc.returncode == 0, proc.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["cause_id"] == "shape.broadcast" and report["meta"]["mode"] == "llm"
    assert report["first_action"] == "Print pred.shape and y.shape right before the loss."
    assert len(srv.requests) == 2


def test_bad_commands_do_not_end_the_session(run_cli, tmp_path):
    script = "/diff missing.diff\n/target nope.py\n/frobnicate\nloss barely moves\n/quit\n"
    proc = chat(run_cli, tmp_path, script, "--quiet")
    assert proc.returncode == 0
    assert "does not exist" in proc.stdout and "unknown command /frobnicate" in proc.stdout
    assert "Traceback" not in proc.stderr


def test_ctrl_c_keeps_every_line_and_resume_continues(tmp_path):
    state = tmp_path / "state"
    environ = {**os.environ, "XDG_STATE_HOME": str(state)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "debug_agent", "chat", "--quiet"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=environ,
        preexec_fn=default_sigint,
    )
    proc.stdin.write("after the first validation pass training behaves differently\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not list(state.glob("debug-agent/chat-*.jsonl")):
        time.sleep(0.1)
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "--resume" in err and "Traceback" not in err
    (transcript,) = state.glob("debug-agent/chat-*.jsonl")
    assert "after the first validation pass" in transcript.read_text()

    resumed = subprocess.run(
        [sys.executable, "-m", "debug_agent", "chat", "--resume", "--format", "json", "--quiet"],
        input="/quit\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=environ,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert "Resumed: 1 earlier line(s) replayed" in resumed.stdout
    report = json.loads(resumed.stdout[resumed.stdout.index("{\n") :])
    assert any("after the first validation pass" in e for e in report["evidence"])
