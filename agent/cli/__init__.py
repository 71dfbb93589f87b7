"""The `debug-agent` command. Commands only: parsing, dispatching, turning typed errors into exit codes.

Exit codes: 0 report produced (or command done); 1 --fail-on-finding and a defect was found;
2 usage or input error; 3 an LLM endpoint was required but unreachable; 130 interrupted.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from debug_agent._version import __version__
from debug_agent.errors import DebugAgentError

EPILOG = """exit codes: 0 report produced; 1 defect found with --fail-on-finding; 2 usage or input error;
3 LLM endpoint required but unreachable; 130 interrupted"""


def _memory(text: str) -> int:
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    t = text.strip().lower().removesuffix("b").removesuffix("i")
    try:
        if t and t[-1] in units:
            return int(float(t[:-1]) * units[t[-1]])
        return int(t)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 4G or 512M") from None


def _positive(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if v <= 0:
        raise argparse.ArgumentTypeError("must be positive")
    return v


def _add_run_flags(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("running user code")
    g.add_argument("--timeout", type=_positive, default=600, help="seconds for the whole run (default 600)")
    g.add_argument("--probe-timeout", type=_positive, default=120, help="seconds per probe (default 120)")
    g.add_argument("--load-timeout", type=_positive, default=120, help="seconds to import the target (default 120)")
    g.add_argument(
        "--max-memory",
        type=_memory,
        default=None,
        help="heap cap for the child process, e.g. 4G (default: half of this machine's memory)",
    )
    g.add_argument("--threads", type=int, default=None, help="torch threads in the child (default min(4, cores))")
    g.add_argument("--seed", type=int, default=0, help="seed for every probe (default 0)")
    g.add_argument("--device", default="cpu", help="device for the probes, e.g. cuda (default cpu)")


def _add_output_flags(p: argparse.ArgumentParser, formats: tuple[str, ...] = ("text", "json", "md")) -> None:
    p.add_argument("--format", choices=formats, default="text", help="output format (default text)")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE (atomically) instead of stdout")
    if "md" in formats:
        p.add_argument(
            "--assets",
            metavar="DIR",
            help="save PNG plots here and link them from Markdown (default with -o x.md: x-assets/)",
        )


def _add_llm_flags(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("LLM (optional; any OpenAI-compatible endpoint via OPENAI_BASE_URL / OPENAI_API_KEY)")
    mode = g.add_mutually_exclusive_group()
    mode.add_argument(
        "--offline", action="store_true", help="never contact an LLM (the default when none is configured)"
    )
    mode.add_argument("--llm", action="store_true", help="require the LLM: exit 3 if it cannot be reached")
    g.add_argument("--model", help="model name (default $DEBUG_AGENT_MODEL or gpt-4o-mini)")
    g.add_argument("--base-url", help="endpoint (default $OPENAI_BASE_URL)")
    g.add_argument("--llm-tokens", type=int, default=12_000, help="token budget per run (default 12000)")
    g.add_argument("--llm-timeout", type=_positive, default=120.0, help="seconds of LLM time per run (default 120)")
    g.add_argument("--no-code", action="store_true", help="send no diff or source text to the LLM, only cue names")


def _add_ask(sub: argparse._SubParsersAction) -> None:
    ask = sub.add_parser(
        "ask",
        help="diagnose a symptom (with a diff and your model or training command) and print a report",
        description="Diagnose a symptom: triage, run probes on your model, weigh, report. "
        "With `-- python train.py [args]` your own training script runs for a few observed steps "
        "(--steps, --timeout) and the probes run on what it captured.",
        usage="debug-agent ask [SYMPTOM] [options] [-- python train.py [args ...]]",
        epilog=EPILOG,
    )
    ask.add_argument("symptom", nargs="?", help="what you see, in words ('-' reads stdin)")
    ask.add_argument("--symptom", dest="symptom_option", metavar="TEXT", help="the symptom in words (as SYMPTOM)")
    ask.add_argument("--symptom-file", metavar="FILE", help="read the symptom from a file")
    src = ask.add_mutually_exclusive_group()
    src.add_argument("--diff", metavar="FILE", help="the unified diff that came before the symptom")
    src.add_argument("--git", nargs="?", const="HEAD", metavar="REV", help="use `git diff REV` (default HEAD)")
    ask.add_argument(
        "--target", metavar="FILE.py[:FUNC]", help="your model: a file whose FUNC (default make_target) returns a dict"
    )
    ask.add_argument("--example", metavar="NAME", help="run a bundled example (see `debug-agent examples`)")
    _add_output_flags(ask)
    _add_llm_flags(ask)
    pr = ask.add_mutually_exclusive_group()
    pr.add_argument("--probe", action="append", metavar="NAME", help="run exactly this probe (repeatable)")
    pr.add_argument("--all-probes", action="store_true", help="run every probe the target supports")
    pr.add_argument("--no-probes", action="store_true", help="run no probe; rank from symptom and code only")
    ask.add_argument(
        "--budget",
        type=_positive,
        default=60.0,
        help="seconds the probes may run in all (default 60); the plan itself comes from declared costs",
    )
    ask.add_argument("--quiet", "-q", action="store_true", help="no progress output on stderr")
    ask.add_argument("--fail-on-finding", action="store_true", help="exit 1 when a defect is found (for CI)")
    ask.add_argument(
        "--steps",
        type=int,
        default=6,
        help="with a training command after --: training steps each observed run may take (default 6)",
    )
    _add_run_flags(ask)


def _add_chat(sub: argparse._SubParsersAction) -> None:
    chat = sub.add_parser(
        "chat",
        help="triage as a conversation; ends with the same report as ask",
        description="Describe the problem; answer the questions that separate the candidates; add a diff or target "
        "on the way (/diff, /target). Lines are saved as you type them.",
        epilog=EPILOG,
    )
    chat.add_argument("--target", metavar="FILE.py[:FUNC]", help="your model (or /target in the conversation)")
    chat.add_argument("--diff", metavar="FILE", help="the diff that came before the symptom (or /diff)")
    chat.add_argument(
        "--transcript",
        metavar="FILE",
        help="where to save the transcript (default: a new file in $XDG_STATE_HOME/debug-agent/)",
    )
    chat.add_argument(
        "--resume", nargs="?", const="latest", metavar="FILE", help="continue a saved session (default: the latest)"
    )
    _add_output_flags(chat)
    chat.add_argument("--quiet", "-q", action="store_true", help="no progress output on stderr")
    chat.add_argument(
        "--budget",
        type=_positive,
        default=60.0,
        help="seconds the probes may run in all (default 60); the plan itself comes from declared costs",
    )
    _add_llm_flags(chat)
    _add_run_flags(chat)


class _Parser(argparse.ArgumentParser):
    """No abbreviated options: an unknown `--sym` must fail, not silently bind to `--symptom-file`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="debug-agent",
        description="Root-cause reports for silent training bugs: runs deterministic probes on your own model.",
        epilog=EPILOG,
    )
    parser.add_argument("--version", action="version", version=f"debug-agent {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    _add_ask(sub)
    _add_chat(sub)

    probe = sub.add_parser(
        "probe",
        help="run one probe on your model and print its result",
        description="Run one probe on a target; options as --option key=value.",
    )
    probe.add_argument("name", help="probe name (see `debug-agent probes`)")
    probe.add_argument("--target", metavar="FILE.py[:FUNC]", help="your model (or --example NAME)")
    probe.add_argument("--example", metavar="NAME", help="a bundled example's target")
    probe.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="probe option (repeatable); values are read as JSON when they parse",
    )
    _add_output_flags(probe, ("text", "json"))
    _add_run_flags(probe)

    probes = sub.add_parser("probes", help="list every probe, its help and the causes it informs")
    probes.add_argument("--format", choices=("text", "json"), default="text")

    cat = sub.add_parser("catalog", help="list the failure modes, or show one in full")
    cat.add_argument("id", nargs="?", help="a catalog id, e.g. shape.broadcast")
    cat.add_argument("--format", choices=("text", "json"), default="text")

    render = sub.add_parser("render", help="re-render a saved report (JSON, or Markdown with embedded JSON)")
    render.add_argument("file", help="a report saved with --format json or --format md")
    _add_output_flags(render)

    sub.add_parser("schema", help="print the report's JSON Schema")
    sub.add_parser("examples", help="list the bundled examples")
    return parser


def _commands() -> dict[str, Callable[[argparse.Namespace], int]]:
    from debug_agent.cli import commands

    return {
        "ask": commands.cmd_ask,
        "chat": commands.cmd_chat,
        "probe": commands.cmd_probe,
        "probes": commands.cmd_probes,
        "catalog": commands.cmd_catalog,
        "render": commands.cmd_render,
        "schema": commands.cmd_schema,
        "examples": commands.cmd_examples,
    }


def report_error(exc: DebugAgentError) -> None:
    lines = [f"debug-agent: {exc.label}: {exc.what}"]
    if exc.where:
        lines.append(f"  where: {exc.where}")
    if exc.fix:
        lines.append(f"  fix: {exc.fix}")
    sys.stderr.write("\n".join(lines) + "\n")


def split_command(argv: list[str]) -> tuple[list[str], list[str] | None]:
    """`ask ... -- python train.py args`: the tool's arguments and the training command after `--`."""
    if argv and argv[0] == "ask" and "--" in argv:
        i = argv.index("--")
        return argv[:i], argv[i + 1 :]
    return argv, None


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    own, train_cmd = split_command(list(sys.argv[1:] if argv is None else argv))
    args = parser.parse_args(own)
    args.train_command = train_cmd
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return _commands()[args.command](args)
    except DebugAgentError as exc:
        report_error(exc)
        return exc.exit_code
    except KeyboardInterrupt:
        sys.stderr.write("debug-agent: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
