"""Deterministic experiments on the user's model, one per module, registered with `@probe`.

The registry lives in `registry.py`; probe modules (built-in or plug-in) are imported by
`debug_agent.plugins.load_probes()`, and importing one registers its probes through the decorator.

May import: schemas, errors. Nothing else of ours (an import-linter contract checks it).
"""

from __future__ import annotations

from debug_agent.probes.registry import REGISTRY, NoOptions, ProbeContext, ProbeSpec, execute, get, probe

__all__ = ["REGISTRY", "NoOptions", "ProbeContext", "ProbeSpec", "execute", "get", "probe"]
