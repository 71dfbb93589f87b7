"""What the CLI's commands do, once arguments are parsed: build the Case and the options, call the engine."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from . import bundled, intake
from .engine import AskOptions
from .engine import ask as engine_ask
from .errors import UsageError
from .progress import ConsoleProgress
from .runner import Limits
from .schemas import Case, ProbeRequest, Report


def default_max_memory() -> int | None:
    """Half of this machine's physical memory."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    except (ValueError, OSError, AttributeError):
        return None


def build_case(args: argparse.Namespace) -> Case:
    symptom_text, symptom_file = args.symptom, args.symptom_file
    diff_file, target = args.diff, args.target
    if args.example:
        ex = bundled.get(args.example)
        if symptom_text is None and symptom_file is None:
            symptom_file = str(ex.symptom)
        if diff_file is None and args.git is None and ex.diff is not None:
            diff_file = str(ex.diff)
        if target is None and ex.target is not None:
            target = str(ex.target)
    stdin = (
        sys.stdin
        if (
            symptom_text == "-"
            or (symptom_text is None and symptom_file is None and sys.stdin is not None and not sys.stdin.isatty())
        )
        else None
    )
    symptom, notes = intake.read_symptom(symptom_text, symptom_file, stdin)
    diff_case = intake.read_diff(diff_file) if diff_file else intake.git_diff(args.git) if args.git else None
    ref = intake.target_ref(target) if target else None
    return intake.build(symptom, symptom_notes=notes, diff_case=diff_case, target=ref)


def ask_options(args: argparse.Namespace) -> AskOptions:
    if args.threads is not None and args.threads < 1:
        raise UsageError("--threads must be at least 1")
    limits = Limits(
        load_s=args.load_timeout,
        probe_s=args.probe_timeout,
        total_s=args.timeout,
        max_memory=args.max_memory if args.max_memory is not None else default_max_memory(),
    )
    if args.threads:
        limits.threads = args.threads
    probes = [ProbeRequest(name=n) for n in (args.probe or [])]
    return AskOptions(
        probes=probes,
        all_probes=args.all_probes,
        no_probes=args.no_probes,
        budget_s=args.budget,
        limits=limits,
        seed=args.seed,
        device=args.device,
        cwd=os.getcwd(),
    )


def ask(args: argparse.Namespace, err_console: Any) -> Report:
    case = build_case(args)
    progress = ConsoleProgress(err_console, quiet=args.quiet)
    try:
        return engine_ask(case, ask_options(args), progress)
    finally:
        progress.close()
