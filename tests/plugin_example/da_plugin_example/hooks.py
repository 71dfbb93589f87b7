"""The plug-in's hook implementations: what it adds to probes, cues and the catalog."""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from debug_agent.plugins import hookimpl


@hookimpl
def debug_agent_probe_modules() -> list[str]:
    return ["da_plugin_example.probe"]


@hookimpl
def debug_agent_cue_modules() -> list[str]:
    return ["da_plugin_example.cue"]


@hookimpl
def debug_agent_catalog_files() -> list[Any]:
    return [files("da_plugin_example").joinpath("catalog.toml")]
