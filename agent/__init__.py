"""debug-agent: root-cause reports for silent training bugs.

Importing this package is cheap: torch is imported only by what needs it (the worker, the probes,
the Python API below).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from debug_agent._version import __version__

if TYPE_CHECKING:
    from debug_agent.api import diagnose
    from debug_agent.schemas import Report, Target

__all__ = ["Report", "Target", "__version__", "diagnose"]


def __getattr__(name: str) -> Any:
    # Lazy exports keep `debug-agent --help` free of torch and of the probe registry.
    if name in ("Report", "Target"):
        from debug_agent import schemas

        return getattr(schemas, name)
    if name == "diagnose":
        from debug_agent.api import diagnose

        return diagnose
    raise AttributeError(f"module 'debug_agent' has no attribute {name!r}")
