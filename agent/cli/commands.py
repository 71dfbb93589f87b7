"""What each CLI command does once its arguments are parsed. Output goes through output.py."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any

from debug_agent import intake
from debug_agent.cli.output import emit, err_console, write_atomic
from debug_agent.cli.progress import ConsoleProgress
from debug_agent.engine import AskOptions
from debug_agent.engine import ask as engine_ask
from debug_agent.errors import UsageError
from debug_agent.intake import bundled
from debug_agent.isolation.runner import Limits, Runner
from debug_agent.isolation.script_runner import ScriptRunner
from debug_agent.schemas import Case, ProbeRequest, TargetRef, TrainCommand


def default_max_memory() -> int | None:
    """Half of this machine's physical memory."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    except (ValueError, OSError, AttributeError):
        return None


def limits(args: argparse.Namespace) -> Limits:
    if args.threads is not None and args.threads < 1:
        raise UsageError("--threads must be at least 1")
    lim = Limits(
        load_s=args.load_timeout,
        probe_s=args.probe_timeout,
        total_s=args.timeout,
        max_memory=args.max_memory if args.max_memory is not None else default_max_memory(),
    )
    if args.threads:
        lim.threads, lim.fixed_threads = args.threads, True
    return lim


def build_case(args: argparse.Namespace) -> Case:
    if args.symptom_option is not None:
        if args.symptom is not None:
            raise UsageError("give the symptom once: as SYMPTOM or with --symptom, not both")
        args.symptom = args.symptom_option
    symptom_text, symptom_file = args.symptom, args.symptom_file
    diff_file, target = args.diff, args.target
    train_argv = getattr(args, "train_command", None)
    if train_argv is not None:
        return _command_case(args, train_argv)
    if args.example:
        ex = bundled.get(args.example)
        if symptom_text is None and symptom_file is None:
            symptom_file = str(ex.symptom)
        if diff_file is None and args.git is None and ex.diff is not None:
            diff_file = str(ex.diff)
        if target is None and ex.target is not None:
            target = str(ex.target)
    piped = symptom_text is None and symptom_file is None and sys.stdin is not None and not sys.stdin.isatty()
    stdin = sys.stdin if symptom_text == "-" or piped else None
    symptom, notes = intake.read_symptom(symptom_text, symptom_file, stdin)
    diff_case = intake.read_diff(diff_file) if diff_file else intake.git_diff(args.git) if args.git else None
    ref = intake.target_ref(target) if target else None
    return intake.build(symptom, symptom_notes=notes, diff_case=diff_case, target=ref)


def _command_case(args: argparse.Namespace, train_argv: list[str]) -> Case:
    """`ask [SYMPTOM] -- python train.py ...`: the symptom is optional; the script is the evidence."""
    from debug_agent.intake import command

    if args.target or args.example:
        raise UsageError(
            "give either a training command after -- or --target/--example, not both",
            fix="drop --target to diagnose the script's real run, or drop the command",
        )
    if args.steps < 1:
        raise UsageError("--steps must be at least 1")
    cmd = command.parse(train_argv, os.getcwd())
    symptom, notes = "", []
    if args.symptom is not None or args.symptom_file is not None:
        stdin = sys.stdin if args.symptom == "-" else None
        symptom, notes = intake.read_symptom(args.symptom, args.symptom_file, stdin)
    diff_case = intake.read_diff(args.diff) if args.diff else intake.git_diff(args.git) if args.git else None
    case = intake.build(symptom, symptom_notes=notes + cmd.notes, diff_case=diff_case, target=None)
    return case.model_copy(update={"command": cmd})


def ask_options(args: argparse.Namespace) -> AskOptions:
    probes = [ProbeRequest(name=n, reason="--probe", origin="user") for n in (getattr(args, "probe", None) or [])]
    return AskOptions(
        probes=probes,
        all_probes=getattr(args, "all_probes", False),
        no_probes=getattr(args, "no_probes", False),
        budget_s=args.budget,
        seed=args.seed,
        device=args.device,
        cwd=os.getcwd(),
        runner_factory=runner_factory(args),
        script_runner_factory=script_runner_factory(args),
        steps=getattr(args, "steps", 6),
    )


def runner_factory(args: argparse.Namespace) -> Callable[[TargetRef], Runner]:
    """Probes from the CLI run in a child process under the limits the flags set."""
    lim, cwd = limits(args), os.getcwd()
    return lambda ref: Runner(ref, limits=lim, seed=args.seed, device=args.device, cwd=cwd)


def script_runner_factory(args: argparse.Namespace) -> Callable[[TrainCommand], ScriptRunner]:
    """A training command runs in a child under observation, bounded by --steps and --timeout."""
    lim, cwd = limits(args), os.getcwd()
    steps = getattr(args, "steps", 6)
    return lambda cmd: ScriptRunner(
        cmd, steps=steps, run_timeout_s=args.timeout, limits=lim, seed=args.seed, device=args.device, cwd=cwd
    )


def make_llm(args: argparse.Namespace) -> Any:
    """An LLM client when one is configured and not --offline; None otherwise."""
    from debug_agent.llm import LLM, LLMConfig

    cfg = LLMConfig.from_env(
        offline=args.offline,
        model=args.model,
        base_url=args.base_url,
        required=args.llm,
        token_budget=args.llm_tokens,
        time_budget_s=args.llm_timeout,
        send_code=not args.no_code,
    )
    return LLM(cfg) if cfg else None


def cmd_ask(args: argparse.Namespace) -> int:
    case = build_case(args)
    llm = make_llm(args)
    progress = ConsoleProgress(err_console(), quiet=args.quiet)
    try:
        report = engine_ask(case, ask_options(args), progress, llm=llm)
    finally:
        progress.close()
    emit(report, args.format, args.output, args.assets, args.quiet)
    if report.partial:
        sys.stderr.write("debug-agent: interrupted; the partial report holds the probes that finished\n")
        return 130
    return 1 if args.fail_on_finding and report.found_defect else 0


def cmd_chat(args: argparse.Namespace) -> int:
    from pathlib import Path

    from debug_agent.cli.chat import Chat, latest_transcript, state_dir

    if args.resume:
        path = latest_transcript() if args.resume == "latest" else Path(args.resume)
        if not path.is_file():
            raise UsageError(f"no transcript at {path}", fix=f"transcripts are kept in {state_dir()}")
    else:
        path = (
            Path(args.transcript) if args.transcript else state_dir() / f"chat-{time.strftime('%Y%m%d-%H%M%S')}.jsonl"
        )
    llm = make_llm(args)
    opts = ask_options(args)
    progress = ConsoleProgress(err_console(), quiet=args.quiet)

    def out(text: str) -> None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    chat = Chat(out, path, opts, progress, llm)
    interactive = sys.stdin.isatty()
    try:
        resumed = chat.replay(path) if args.resume else 0
        for flag, value in (("/diff", args.diff), ("/target", args.target)):
            if value:
                chat.handle(f"{flag} {value}")
        chat.start(resumed)
        while not chat.done:
            line = input("> ") if interactive else sys.stdin.readline()
            if not interactive and line == "":
                break
            chat.handle(line.rstrip("\n"))
        report = chat.final_report()
    except (KeyboardInterrupt, EOFError) as exc:
        chat.close()
        if isinstance(exc, EOFError):
            report = chat.final_report()
        else:
            sys.stderr.write(
                f"\ndebug-agent: interrupted; the session is saved in {path}; "
                f"continue with: debug-agent chat --resume {path}\n"
            )
            return 130
    finally:
        progress.close()
        chat.close()
    if report is not None:
        emit(report, args.format, args.output, args.assets, args.quiet)
    if not args.quiet:
        err_console().print(f"[dim]transcript saved in {path}[/dim]")
    return 0


def _option(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise UsageError(f"--option {text!r} is not KEY=VALUE", fix="e.g. --option steps=50 --option tol=1e-5")
    try:
        return key.strip(), json.loads(value)
    except json.JSONDecodeError:
        return key.strip(), value


def cmd_probe(args: argparse.Namespace) -> int:
    spec = args.target or (str(bundled.get(args.example).target) if args.example else None)
    if spec is None or spec == "None":
        raise UsageError("`debug-agent probe` needs --target FILE.py[:FUNC] or --example NAME")
    ref: TargetRef = intake.target_ref(spec)
    options = dict(_option(o) for o in args.option)
    with Runner(ref, limits=limits(args), seed=args.seed, device=args.device, cwd=os.getcwd()) as runner:
        ready = runner.start()
        if args.name not in {p.name for p in ready.probes}:
            raise UsageError(
                f"unknown probe {args.name!r}", fix=f"known probes: {', '.join(p.name for p in ready.probes)}"
            )
        result = runner.run(ProbeRequest(name=args.name, options=options))
    if args.format == "json":
        text = result.model_dump_json(indent=2) + "\n"
    else:
        lines = [f"{result.name}: {result.status} ({result.seconds:.2f}s)", f"  {result.summary}"]
        lines += [f"  - {f.text}" + (f"  [{f.where}]" if f.where else "") for f in result.findings]
        lines += [f"  {k}: {json.dumps(v)[:200]}" for k, v in result.measurements.items()]
        lines += [f"  outcomes: {', '.join(result.outcomes) or '-'}"] + (
            [f"  error: {result.error}"] if result.error else []
        )
        text = "\n".join(lines) + "\n"
    if args.output:
        write_atomic(args.output, text)
    else:
        sys.stdout.write(text)
    return 0


def _informs() -> dict[str, list[str]]:
    from debug_agent.engine import catalog

    out: dict[str, list[str]] = {}
    for e in catalog.load().entries:
        for name, table in e.probes.items():
            if e.kind != "healthy" and any(w > 0 for w in table.values()):
                out.setdefault(name, []).append(e.id)
    return out


def cmd_probes(args: argparse.Namespace) -> int:
    from debug_agent.isolation import probe_registry

    informs = _informs()
    infos = [s.info() for s in probe_registry().values()]
    if args.format == "json":
        data = [i.model_dump() | {"informs": informs.get(i.name, [])} for i in infos]
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        return 0
    for i in infos:
        needs = ", ".join(r for r in i.requires if r not in ("model", "batch")) or "-"
        sys.stdout.write(
            f"{i.name:18} {i.help}\n{'':18} needs: {needs}; cost ~{i.cost:g} fwd+bwd; "
            f"informs: {', '.join(informs.get(i.name, []))}\n"
        )
    return 0


def cmd_catalog(args: argparse.Namespace) -> int:
    from debug_agent import cues
    from debug_agent.engine import catalog

    cat = catalog.load()
    if args.id is None:
        if args.format == "json":
            sys.stdout.write(cat.model_dump_json(indent=2) + "\n")
        else:
            for e in cat.entries:
                tested = ", ".join(e.probes) or "symptom and diff only"
                sys.stdout.write(f"{e.id:26} {e.title}\n{'':26} tested by: {tested}\n")
        return 0
    try:
        e = cat.get(args.id)
    except KeyError:
        raise UsageError(f"no catalog entry {args.id!r}", fix="`debug-agent catalog` lists the ids") from None
    if args.format == "json":
        sys.stdout.write(e.model_dump_json(indent=2) + "\n")
        return 0
    rules = cues.registered_cues()
    parts = [f"{e.id}: {e.title}", "", e.explanation, "", "Symptom phrases:"]
    parts += [f"  {c.pattern}  (+{c.weight:g})" for c in e.symptoms] or ["  -"]
    parts += ["", "Code cues:"] + ([f"  {k} (+{w:g}): {rules[k].help}" for k, w in e.code_cues.items()] or ["  -"])
    parts += ["", "Probe outcomes (log-odds):"]
    parts += [f"  {p}: " + ", ".join(f"{t} {w:+g}" for t, w in table.items()) for p, table in e.probes.items()] or [
        "  -"
    ]
    parts += [
        "",
        f"First action: {e.first_action}",
        f"If true: {e.prediction_if_true}",
        f"If false: {e.prediction_if_false}",
        f"Fix: {e.fix}",
    ]
    sys.stdout.write("\n".join(parts) + "\n")
    return 0


def cmd_render(args: argparse.Namespace) -> int:
    from debug_agent.report.render import read_report

    emit(read_report(args.file), args.format, args.output, args.assets)
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from debug_agent.schemas import Report

    sys.stdout.write(json.dumps(Report.model_json_schema(), indent=2) + "\n")
    return 0


def cmd_examples(args: argparse.Namespace) -> int:
    for ex in bundled.all_examples():
        sys.stdout.write(f"{ex.name:24} {ex.expect:26} {ex.description}\n")
    return 0
