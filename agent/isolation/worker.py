"""The child process: loads the user's target and runs probes on request (JSON lines over a pipe).

Protocol (one JSON object per line):
  parent -> child  {"op": "load", "path", "func", "seed", "threads", "device"}
                   {"op": "script", "command", "steps", "timeout_s", "intervention", "seed", "threads", "device"}
                   {"op": "run", "name", "options", "budget_s"}
                   {"op": "exit"}
  child -> parent  {"event": "ready", "info": TargetInfo, "probes": [ProbeInfo], "unit_seconds", "observation"?}
                   {"event": "result", "result": ProbeResult}
                   {"event": "error", "error": {type, what, where, fix}}

The protocol uses private copies of the original stdin and stdout; fd 1 is pointed at stderr so that
prints in the user's code can never corrupt it, and fd 0 at /dev/null so that the user's code never
reads (or waits on) the protocol. `script` runs a training command under observation (script.py) and
captures a Target from it (capture.py); `run` then runs probes on that Target as on a loaded one.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from typing import IO, Any

from debug_agent.errors import DebugAgentError, WorkerError
from debug_agent.schemas import TargetRef


def _warm_optimizers() -> None:
    import torch._dynamo  # noqa: F401


def peak_rss_mb() -> float:
    """This process's peak resident memory so far, in MiB (Linux reports KiB)."""
    import resource

    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _send(out: IO[str], obj: dict[str, Any]) -> None:
    out.write(json.dumps(obj) + "\n")
    out.flush()


def _apply_memory_cap(max_bytes: int | None) -> None:
    if not max_bytes:
        return
    import resource

    # RLIMIT_DATA caps heap allocations (malloc/mmap of data) without counting the large virtual
    # reservations torch makes at import, which RLIMIT_AS would.
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    limit = max_bytes if hard == resource.RLIM_INFINITY else min(max_bytes, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))


SMALL_MODEL = 1_000_000  # parameters; at most this many run on one thread unless --threads says otherwise


class Worker:
    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self.target: Any = None
        self.seed = 0
        self.device = "cpu"
        self.unit: float | None = None

    def load(self, req: dict[str, Any]) -> None:
        import torch

        threads = int(req.get("threads") or 1)
        torch.set_num_threads(threads)
        self.seed = int(req.get("seed", 0))
        self.device = str(req.get("device") or "cpu")
        torch.manual_seed(self.seed)
        from debug_agent.isolation import probe_registry, target

        registry = probe_registry()
        ref = TargetRef(path=req["path"], func=req.get("func") or "make_target")
        self.target, info = target.load(ref, self.device)
        if threads > 1 and not req.get("fixed_threads") and info.n_params <= SMALL_MODEL:
            # Small models run slower on several threads (synchronisation dwarfs the work). Decided from
            # the model's size, not from a timing, so the same target always runs with the same threads
            # (thread counts can change the last digits of reductions, and so the report).
            threads = 1
            torch.set_num_threads(1)
        self.unit = target.unit_seconds(self.target)
        info.extra["threads"] = threads
        # torch imports its compiler stack (about a second) the first time an optimizer is built; start
        # that now, in the background, so the cheap probes that run first hide part of it.
        threading.Thread(target=_warm_optimizers, daemon=True).start()
        _send(
            self.out,
            {
                "event": "ready",
                "info": info.model_dump(mode="json"),
                "probes": [s.info(info.provided).model_dump(mode="json") for s in registry.values()],
                "unit_seconds": self.unit,
                "rss_mb": peak_rss_mb(),
            },
        )

    def script(self, req: dict[str, Any]) -> None:
        """Run the user's training command under observation, capture a Target, answer `ready`."""
        import torch

        from debug_agent.isolation import probe_registry, scripted

        torch.set_num_threads(int(req.get("threads") or 1))
        self.seed = int(req.get("seed", 0))
        self.device = str(req.get("device") or "cpu")
        torch.manual_seed(self.seed)
        registry = probe_registry()
        self.target, info, observation = scripted.load(req)
        self.unit = scripted.unit_seconds(self.target, info)
        _send(
            self.out,
            {
                "event": "ready",
                "info": info.model_dump(mode="json"),
                "probes": [s.info(info.provided).model_dump(mode="json") for s in registry.values()],
                "unit_seconds": self.unit,
                "observation": observation.model_dump(mode="json"),
                "rss_mb": peak_rss_mb(),
            },
        )

    def run(self, req: dict[str, Any]) -> None:
        from debug_agent import probes
        from debug_agent.isolation.boundary import run_isolated

        name = str(req["name"])
        ctx = probes.ProbeContext(
            seed=self.seed, budget_s=float(req.get("budget_s", 30.0)), device=self.device, unit_seconds=self.unit
        )
        result = run_isolated(name, self.target, ctx, req.get("options") or {})
        if self.unit and result.status != "not_applicable":
            result.measurements.setdefault("cost_units", round(result.seconds / self.unit, 2))
        _send(self.out, {"event": "result", "result": result.model_dump(mode="json"), "rss_mb": peak_rss_mb()})


def main() -> int:
    proto = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - lives as long as the process
    _apply_memory_cap(int(os.environ.get("DEBUG_AGENT_MAX_MEMORY", "0")) or None)
    worker = Worker(proto)
    for line in requests:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            op = req.get("op")
            if op == "load":
                worker.load(req)
            elif op == "script":
                worker.script(req)
            elif op == "run":
                if worker.target is None:
                    raise WorkerError("run before load")
                worker.run(req)
            elif op == "exit":
                break
            else:
                raise WorkerError(f"unknown op {op!r}")
        except DebugAgentError as exc:
            _send(proto, {"event": "error", "error": exc.to_dict()})
        except json.JSONDecodeError as exc:
            _send(proto, {"event": "error", "error": WorkerError(f"bad request line: {exc}").to_dict()})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
