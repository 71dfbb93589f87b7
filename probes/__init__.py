"""Deterministic experiments on the user's model, one per module, registered with `@probe`.

Importing this package imports every probe module in it and every plug-in published under the
entry-point group `debug_agent.probes`; all of them register through the same decorator.
"""

from __future__ import annotations

import importlib
import pkgutil
from importlib.metadata import entry_points

from .registry import REGISTRY, NoOptions, ProbeContext, ProbeSpec, execute, get, probe

__all__ = ["REGISTRY", "NoOptions", "ProbeContext", "ProbeSpec", "execute", "get", "probe", "load_all"]

_loaded = False


def load_all() -> dict[str, ProbeSpec]:
    """Import built-in probe modules and plug-ins once; return the registry."""
    global _loaded
    if not _loaded:
        for mod in pkgutil.iter_modules(__path__):
            if not mod.name.startswith("_") and mod.name != "registry":
                importlib.import_module(f"{__name__}.{mod.name}")
        for ep in entry_points(group="debug_agent.probes"):
            ep.load()
        _loaded = True
    return REGISTRY
