"""Isolation: where the user's code runs, and the only room that imports it.

`runner.py` is the parent side (spawn the worker, JSON lines over a private pipe, limits, restarts);
`worker.py` is the child (loads the target, runs probes); `target.py` loads and checks a target file;
`local.py` runs probes in-process on copies for the Python API. Both runners go through
`run_isolated()` so an exception is blamed on the user only when a frame of theirs raised it.

May import: schemas, errors, probes, plugins. Never the engine, the CLI, the LLM or report rooms.
"""

from __future__ import annotations

from typing import Any


def probe_registry() -> dict[str, Any]:
    """Every probe, built-in and plug-in, registered (imports torch): name -> ProbeSpec."""
    from debug_agent import plugins
    from debug_agent.probes.registry import REGISTRY

    plugins.probe_modules()
    return REGISTRY
