"""The built-in provider: registered through the `debug_agent` entry-point group like any plug-in.

May import: plugins (the hook marker) and the standard library; probe and cue modules are named, not
imported, so the CLI can list cues without importing torch.
"""

from __future__ import annotations

import pkgutil
from importlib.resources import files
from importlib.util import find_spec
from typing import Any

from debug_agent.plugins import hookimpl


def _modules(package: str, skip: tuple[str, ...]) -> list[str]:
    spec = find_spec(package)
    paths = list(spec.submodule_search_locations or []) if spec else []
    return [
        f"{package}.{m.name}" for m in pkgutil.iter_modules(paths) if not m.name.startswith("_") and m.name not in skip
    ]


@hookimpl
def debug_agent_probe_modules() -> list[str]:
    return _modules("debug_agent.probes", skip=("registry",))


@hookimpl
def debug_agent_cue_modules() -> list[str]:
    return _modules("debug_agent.cues", skip=("registry", "scan"))


@hookimpl
def debug_agent_catalog_files() -> list[Any]:
    return [files("debug_agent.engine").joinpath("catalog.toml")]
