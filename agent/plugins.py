"""The one plug-in mechanism for probes, static cues and failure-mode catalog entries (pluggy).

Every provider, the built-ins included, is a module registered under the entry-point group
`debug_agent` that implements some of the hooks below. Built-ins are published by this project's own
`pyproject.toml` (`builtin = "debug_agent.builtins"`), so they take exactly the path a third-party
package takes. Loading is lazy: the CLI asks for cues and catalog files without importing torch;
probe modules are imported only where probes run (the worker, the in-process runner, tests).

Registration is validated when it happens: a hook that names a module that cannot be imported, or a
catalog file that cannot be read, raises RegistrationError naming the plug-in.

May import: errors. It imports provider modules by name; the registries they fill live in their rooms
(`probes.registry`, `cues.registry`), which call in here, never the other way round.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import pluggy

from debug_agent.errors import RegistrationError

GROUP = "debug_agent"
hookspec = pluggy.HookspecMarker(GROUP)
hookimpl = pluggy.HookimplMarker(GROUP)


class Specs:
    """The hooks a plug-in may implement (specifications: pluggy never runs these bodies). Each
    implementation returns a list; the results from every plug-in are joined."""

    @hookspec
    def debug_agent_probe_modules(self) -> list[str]:
        """Dotted names of modules whose `@probe` functions should be registered (importing registers)."""

    @hookspec
    def debug_agent_cue_modules(self) -> list[str]:
        """Dotted names of modules whose `@cue` detectors should be registered (importing registers)."""

    @hookspec
    def debug_agent_catalog_files(self) -> list[Any]:
        """Catalog TOML files (paths or importlib.resources files) with `[[entries]]` to add."""


@dataclass(frozen=True)
class CatalogSource:
    plugin: str
    origin: str
    text: str


@lru_cache(maxsize=1)
def manager() -> pluggy.PluginManager:
    """The plug-in manager with every installed provider registered (cached for the process)."""
    pm = pluggy.PluginManager(GROUP)
    pm.add_hookspecs(Specs)
    try:
        pm.load_setuptools_entrypoints(GROUP)
    except Exception as exc:  # a plug-in that fails at import: name it, never a bare traceback
        raise RegistrationError(f"a debug_agent plug-in failed to load: {type(exc).__name__}: {exc}") from exc
    if not any(name == "builtin" for name, _ in pm.list_name_plugin()):
        raise RegistrationError(
            "the built-in probes, cues and catalog are not registered (entry point group 'debug_agent')",
            fix="install the package (pip install -e .) so its entry points exist",
        )
    return pm


def _per_plugin(hook_name: str) -> list[tuple[str, Any]]:
    """(plug-in name, item) for every item every plug-in returns from one hook, in registration order."""
    pm = manager()
    out: list[tuple[str, Any]] = []
    for impl in reversed(getattr(pm.hook, hook_name).get_hookimpls()):
        name = pm.get_name(impl.plugin) or repr(impl.plugin)
        items = impl.function()
        if not isinstance(items, (list, tuple)):
            raise RegistrationError(f"plug-in {name!r}: {hook_name}() must return a list, got {type(items).__name__}")
        out += [(name, item) for item in items]
    return out


def _import_all(hook_name: str) -> list[str]:
    loaded = []
    for plugin, module in _per_plugin(hook_name):
        try:
            importlib.import_module(module)
        except ImportError as exc:
            raise RegistrationError(
                f"plug-in {plugin!r}: {hook_name}() names module {module!r}, which cannot be imported: {exc}"
            ) from exc
        loaded.append(module)
    return loaded


@lru_cache(maxsize=1)
def probe_modules() -> tuple[str, ...]:
    """Import every provider's probe modules once (importing registers their probes); return their names."""
    return tuple(_import_all("debug_agent_probe_modules"))


@lru_cache(maxsize=1)
def cue_modules() -> tuple[str, ...]:
    """Import every provider's cue modules once (importing registers their cues); return their names."""
    return tuple(_import_all("debug_agent_cue_modules"))


def catalog_sources() -> list[CatalogSource]:
    """Every provider's catalog files, read as text, built-ins first."""
    out = []
    for plugin, ref in _per_plugin("debug_agent_catalog_files"):
        path = ref if isinstance(ref, Traversable) else Path(ref)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise RegistrationError(f"plug-in {plugin!r}: cannot read catalog file {ref}: {exc}") from exc
        out.append(CatalogSource(plugin, str(getattr(path, "name", ref)), text))
    return out
