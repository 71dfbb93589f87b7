"""`debug-agent chat`: triage as a conversation, ending in the same Report as `ask`.

The user describes the problem; the agent asks the catalog question whose answer is expected to
separate the leading candidates most; a diff or target can arrive mid-conversation (/diff, /target);
/run runs the probes; /report shows or saves the report. Every line typed is appended to a
transcript (JSON lines, flushed at once) before it is acted on, so Ctrl-C loses nothing and
`--resume` picks the session up again. Transcripts are created 0600 in a 0700 folder and pass
through the same secret redaction as LLM requests. The diff and target files a session read are
recorded with their SHA-256; `--resume` says when one is missing or has changed, and asks before
going on.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from debug_agent import intake
from debug_agent.engine import AskOptions, Progress, questions, triage
from debug_agent.engine import ask as engine_ask
from debug_agent.errors import DebugAgentError, UsageError
from debug_agent.llm.redact import redact
from debug_agent.schemas import Case, ParsedDiff, Question, Report, TargetRef

YES = {"y", "yes", "yeah", "yep", "true", "1"}
NO = {"n", "no", "nope", "false", "0"}
SKIP = {"skip", "?", "dunno", "don't know", "not sure", "s"}
HELP = """commands: /diff FILE  /target FILE.py[:FUNC]  /run  /report [text|md|json] [FILE]  /why  /help  /quit
answer questions with yes, no or skip; anything else adds to the description of the problem"""


def state_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "debug-agent"


def latest_transcript() -> Path:
    files = sorted(state_dir().glob("chat-*.jsonl"), key=lambda p: p.stat().st_mtime)
    if not files:
        raise UsageError("no chat transcript to resume", fix=f"transcripts are kept in {state_dir()}")
    return files[-1]


@dataclass
class Session:
    """The conversation so far: everything needed to rebuild the Case."""

    symptom: list[str] = field(default_factory=list)
    answers: dict[str, bool] = field(default_factory=dict)
    asked: list[str] = field(default_factory=list)
    diff: ParsedDiff | None = None
    target: TargetRef | None = None
    pending: Question | None = None
    report: Report | None = None
    stale: bool = True
    confirm: list[str] = field(default_factory=list)  # resume problems awaiting a yes/no

    def case(self) -> Case:
        text, notes = intake.clip_symptom("\n".join(self.symptom)) if self.symptom else ("", [])
        return Case(
            symptom=text,
            diff=self.diff,
            target=self.target,
            answers=dict(self.answers),
            notes=notes + (self.diff.notes if self.diff else []),
        )

    def next_question(self) -> Question | None:
        return questions.next_question(self.case(), self.asked)


class Chat:
    def __init__(
        self,
        out: Callable[[str], None],
        transcript: Path,
        opts: AskOptions,
        progress: Progress | None = None,
        llm: Any = None,
    ) -> None:
        self.out = out
        self.transcript = transcript
        self.opts = opts
        self.progress = progress
        self.llm = llm
        self.s = Session()
        self._fh: IO[str] | None = None
        self._replaying = False
        self.done = False
        self.stopped = False  # the user declined to go on after a resume problem

    # -- transcript ---------------------------------------------------------------------------------

    def _log(self, kind: str, text: str, **extra: str) -> None:
        if self._fh is None:
            folder = self.transcript.parent
            if not folder.is_dir():
                folder.mkdir(parents=True, mode=0o700)
                folder.chmod(0o700)  # mkdir's mode is masked by the umask
            fd = os.open(self.transcript, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            os.fchmod(fd, 0o600)
            self._fh = os.fdopen(fd, "a", encoding="utf-8")
        item = {"t": kind, "text": redact(text)[0], "at": round(time.time(), 3)} | extra
        self._fh.write(json.dumps(item) + "\n")
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def _record_file(self, kind: str, path: str) -> None:
        """Log the file a /diff or /target read, with its hash, so --resume can tell when it changed."""
        if self._replaying:
            return
        self._log("file", kind, path=str(Path(path).resolve()), sha256=file_hash(Path(path)) or "")

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def say(self, text: str) -> None:
        self._log("agent", text)
        self.out(text)

    def replay(self, path: Path) -> int:
        """Feed the user's lines of an earlier transcript back in, quietly; returns how many.

        Files the session read that are now missing or changed are listed in `self.s.confirm`.
        """
        lines = []
        files: dict[str, tuple[str, str]] = {}
        for raw in path.read_text(encoding="utf-8").splitlines():
            try:
                item = json.loads(raw)
            except json.JSONDecodeError:
                continue
            if not isinstance(item, dict):
                continue
            if item.get("t") == "user":
                lines.append(str(item.get("text", "")))
            elif item.get("t") == "file" and item.get("path"):
                files[str(item["path"])] = (str(item.get("text", "file")), str(item.get("sha256", "")))
        for file, (kind, digest) in files.items():
            now = file_hash(Path(file))
            if now is None:
                self.s.confirm.append(f"the {kind} file {file} is missing")
            elif digest and now != digest:
                self.s.confirm.append(f"the {kind} file {file} has changed since the session was saved")
        out, self.out = self.out, (lambda text: None)
        self._replaying = True
        try:
            for line in lines:
                if not line.startswith(("/run", "/report", "/quit")):
                    self.handle(line, log=False)
        finally:
            self.out = out
            self._replaying = False
        return len(lines)

    # -- conversation -------------------------------------------------------------------------------

    def start(self, resumed: int = 0) -> None:
        if resumed and self.s.confirm:
            self.say(f"Resumed: {resumed} earlier line(s) replayed, but " + "; ".join(self.s.confirm) + ".")
            self.say("Go on without it (the verdict may differ from before)? (yes / no)")
        elif resumed:
            self.say(f"Resumed: {resumed} earlier line(s) replayed. {self._status()}")
            self._ask_next()
        else:
            self.say("Describe the problem you see (several lines are fine). Type /help for commands.")

    def handle(self, line: str, log: bool = True) -> None:
        if log:
            self._log("user", line)
        text = line.strip()
        if not text:
            return
        if self.s.confirm and log:
            self._confirm(text)
            return
        try:
            if text.startswith("/"):
                self._command(text)
            elif self.s.pending is not None and (word := text.lower().rstrip(".!")) in YES | NO | SKIP:
                q, self.s.pending = self.s.pending, None
                if word in YES | NO:
                    self.s.answers[q.id] = word in YES
                    self.s.stale = True
                self._ask_next()
            else:
                self.s.symptom.append(text)
                self.s.pending = None
                self.s.stale = True
                self._ask_next()
        except DebugAgentError as exc:
            self.say(f"{exc.label}: {exc.what}" + (f" ({exc.fix})" if exc.fix else ""))

    def _confirm(self, text: str) -> None:
        word = text.lower().rstrip(".!")
        if word in YES:
            self.s.confirm = []
            self.say(f"Going on. {self._status()}")
            self._ask_next()
        elif word in NO:
            self.s.confirm = []
            self.done = self.stopped = True
            self.say("Stopped. Restore the file (or give it again with /diff or /target) and resume.")
        else:
            self.say("Please answer yes or no: go on without the missing or changed file?")

    def _ask_next(self) -> None:
        q = self.s.next_question()
        if q is None:
            hint = "/run to test the model" if self.s.target else "/target FILE.py to let me test your model"
            self.say(f"I have no further question that would separate the candidates. {hint}, or /report.")
            return
        self.s.asked.append(q.id)
        self.s.pending = q
        self.say(f"{q.text} (yes / no / skip)")

    def _status(self) -> str:
        top = triage(self.s.case()).ledger.hypotheses()[:3]
        return "Leading candidates: " + ", ".join(f"{h.cause_id} {h.credence:.2f}" for h in top)

    def _command(self, text: str) -> None:
        cmd, _, arg = text.partition(" ")
        arg = arg.strip()
        if cmd == "/help":
            self.say(HELP)
        elif cmd == "/diff":
            self.s.diff = intake.read_diff(arg).diff if arg else None
            self.s.stale = True
            if arg:
                self._record_file("diff", arg)
            n = len(self.s.diff.hunks) if self.s.diff else 0
            self.say(f"Diff read: {n} hunk(s). {self._status()}")
        elif cmd == "/target":
            self.s.target = intake.target_ref(arg) if arg else None
            self.s.stale = True
            if self.s.target is not None:
                self._record_file("target", self.s.target.path)
            self.say(f"Target set to {arg}. /run runs the probes." if arg else "Target cleared.")
        elif cmd == "/why":
            self.say(self._status())
        elif cmd == "/run":
            self._run()
            if self.s.report:
                self._summary(self.s.report)
        elif cmd == "/report":
            self._report(arg)
        elif cmd in ("/quit", "/exit", "/q"):
            self.done = True
        else:
            raise UsageError(f"unknown command {cmd}", fix=HELP.splitlines()[0])

    def _run(self) -> Report:
        if not self.s.symptom and not self.s.answers:
            raise UsageError("describe the problem first")
        if self.s.report is None or self.s.stale:
            self.s.report = engine_ask(self.s.case(), self.opts, self.progress, llm=self.llm)
            self.s.stale = False
        return self.s.report

    def final_report(self) -> Report | None:
        """The report the session ends with: none when there is nothing to diagnose or the user stopped."""
        if self.stopped or self.s.confirm or not (self.s.symptom or self.s.answers):
            return None
        return self._run()

    def _summary(self, report: Report) -> None:
        from debug_agent.report.render import verdict

        self.say(verdict(report))
        self.say(f"First action: {report.first_action}")
        for h in report.hypotheses[1:3]:
            self.say(f"  also: {h.title} ({h.cause_id}) {h.credence:.2f}, {h.status}")

    def _report(self, arg: str) -> None:
        from debug_agent.cli.output import write_atomic
        from debug_agent.report import render

        parts = arg.split()
        fmt = parts[0] if parts and parts[0] in ("text", "md", "json") else "text"
        path = parts[-1] if parts and parts[-1] not in ("text", "md", "json") else None
        report = self._run()
        if path:
            write_atomic(path, render.to_json(report) + "\n" if fmt == "json" else render.to_markdown(report))
            self.say(f"Report saved to {path}.")
        elif fmt == "json":
            self.out(render.to_json(report))
        elif fmt == "md":
            self.out(render.to_markdown(report))
        else:
            self._summary(report)


def file_hash(path: Path) -> str | None:
    """SHA-256 of a file's bytes; None when it cannot be read."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None
