"""Parse the training command given after `--`: `python train.py ...`, `python -m pkg.train ...`,
`torchrun --nproc-per-node=1 train.py ...` or a bare `train.py ...`. Pure: no torch, no process.

The command is run as one process in the worker (a torchrun launcher is replaced by the script it
would start, with one process). May import: schemas, errors.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from debug_agent.errors import UsageError
from debug_agent.schemas import TrainCommand

PYTHON_RE = re.compile(r"^(python|python3|python3\.\d+|py)$")
LAUNCHERS = ("torchrun", "torch.distributed.run", "torch.distributed.launch")
# Interpreter flags that take no value and change nothing we need (the child is our own interpreter).
PY_FLAGS_IGNORED = {"-u", "-B", "-O", "-OO", "-s", "-S", "-E", "-I", "-q", "-b", "-bb"}
PY_FLAGS_WITH_VALUE = {"-W", "-X"}
# torchrun options whose value we check or ignore; the rest are refused with a clear message.
TORCHRUN_VALUE = {"--nproc-per-node", "--nproc_per_node", "--nnodes", "--node-rank", "--node_rank", "--master-port",
                  "--master_port", "--master-addr", "--master_addr", "--rdzv-backend", "--rdzv_backend",
                  "--rdzv-endpoint", "--rdzv_endpoint", "--rdzv-id", "--rdzv_id", "--max-restarts",
                  "--max_restarts", "--log-dir", "--log_dir", "--redirects", "--tee", "--local-addr",
                  "--local_addr", "--monitor-interval", "--monitor_interval", "--start-method", "--start_method",
                  "--role", "--run-path", "--run_path"}
TORCHRUN_FLAGS = {"--standalone", "--no-python", "--no_python", "--module"}

USAGE_FIX = "give the command after --, e.g. debug-agent ask 'loss oscillates' -- python train.py --epochs 1"


def _script_or_module(rest: list[str], cmd: TrainCommand, cwd: str) -> TrainCommand:
    if not rest:
        raise UsageError("the training command names no script", fix=USAGE_FIX)
    if rest[0] == "-m":
        if len(rest) < 2 or not re.match(r"^[A-Za-z_][\w.]*$", rest[1]):
            raise UsageError("`-m` needs a module name, e.g. python -m pkg.train", fix=USAGE_FIX)
        return cmd.model_copy(update={"kind": "module", "module": rest[1], "args": rest[2:]})
    if rest[0] == "-c":
        raise UsageError("`python -c CODE` is not a training script", fix="save the code in a file and run that")
    if rest[0].startswith("-"):
        raise UsageError(f"unsupported interpreter option {rest[0]!r} before the script", fix=USAGE_FIX)
    path = rest[0]
    full = Path(cwd, path)
    if not full.exists():
        raise UsageError(f"the training script {path!r} does not exist (looked in {cwd})", fix=USAGE_FIX)
    if full.is_dir() and not (full / "__main__.py").exists():
        raise UsageError(f"{path!r} is a folder without __main__.py, not a script", fix=USAGE_FIX)
    return cmd.model_copy(update={"kind": "script", "path": path, "args": rest[1:]})


def _python(argv: list[str], cwd: str) -> TrainCommand:
    cmd = TrainCommand(argv=argv, kind="script")
    rest = argv[1:]
    notes = []
    while rest and rest[0] in PY_FLAGS_IGNORED | PY_FLAGS_WITH_VALUE:
        flag = rest.pop(0)
        if flag in PY_FLAGS_WITH_VALUE and rest:
            flag += " " + rest.pop(0)
        notes.append(f"interpreter option {flag} ignored")
    cmd.notes = notes
    return _script_or_module(rest, cmd, cwd)


def _torchrun(argv: list[str], cwd: str) -> TrainCommand:
    cmd = TrainCommand(argv=argv, kind="script", launcher="torchrun")
    rest = argv[1:]
    module = False
    while rest and rest[0].startswith("--"):
        opt = rest.pop(0)
        name, eq, value = opt.partition("=")
        if name in TORCHRUN_FLAGS:
            module = module or name == "--module"
            continue
        if name not in TORCHRUN_VALUE:
            raise UsageError(f"unsupported torchrun option {name!r}", fix="run the script with python instead")
        if not eq:
            if not rest:
                raise UsageError(f"torchrun option {name} needs a value", fix=USAGE_FIX)
            value = rest.pop(0)
        if name in ("--nproc-per-node", "--nproc_per_node", "--nnodes") and value not in ("1", "1:1"):
            raise UsageError(
                f"torchrun {name}={value}: debug-agent runs the script as a single process",
                fix=f"use {name}=1 (the diagnosis needs one process, not the whole job)",
            )
    cmd.notes = ["torchrun replaced by one process (RANK=0, WORLD_SIZE=1)"]
    return _script_or_module((["-m"] if module else []) + rest, cmd, cwd)


def parse(argv: list[str], cwd: str | None = None) -> TrainCommand:
    """The command after `--`, parsed; UsageError (exit 2) with how to fix it when it is not runnable."""
    cwd = cwd or os.getcwd()
    if not argv:
        raise UsageError("nothing after `--`", fix=USAGE_FIX)
    head = os.path.basename(argv[0])
    if PYTHON_RE.match(head):
        return _python(argv, cwd)
    if head in LAUNCHERS:
        return _torchrun(argv, cwd)
    if argv[0] == "-m" or (len(argv) > 1 and head == "-m"):
        return _script_or_module(argv, TrainCommand(argv=argv, kind="module"), cwd)
    if head.endswith(".py"):
        return _script_or_module(argv, TrainCommand(argv=argv, kind="script"), cwd)
    raise UsageError(
        f"cannot run {argv[0]!r}: debug-agent runs Python training scripts",
        fix="start the command with python, python -m or torchrun (e.g. -- python train.py)",
    )
