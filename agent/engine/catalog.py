"""Load the failure-mode catalog into pydantic models and check it against the cues.

The catalog is the built-in `catalog.toml` plus every plug-in's catalog files, all reached through
the same `debug_agent_catalog_files` hook. A plug-in file holds `[[entries]]` (and may hold
`[[questions]]`); its top-level settings are ignored. An id that clashes is an error naming the file.

May import: schemas, errors, cues, plugins.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path

from pydantic import ValidationError

from debug_agent import plugins
from debug_agent.cues import registered_cues
from debug_agent.engine.facts import KNOWN as KNOWN_FACTS
from debug_agent.errors import CatalogError, validation_problems
from debug_agent.schemas import Catalog, ProbeInfo


def _toml(text: str, origin: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{origin} is not valid TOML: {exc}", where=origin) from exc


def _parse(text: str, origin: str, extra: list[tuple[str, str]] | None = None) -> Catalog:
    raw = _toml(text, origin)
    for extra_origin, extra_text in extra or []:
        more = _toml(extra_text, extra_origin)
        clash = sorted({e.get("id") for e in more.get("entries", [])} & {e.get("id") for e in raw.get("entries", [])})
        if clash:
            raise CatalogError(f"{extra_origin} redefines catalog entries {clash}", where=extra_origin)
        raw["entries"] = raw.get("entries", []) + more.get("entries", [])
        raw["questions"] = raw.get("questions", []) + more.get("questions", [])
        origin = f"{origin} + {extra_origin}"
    try:
        cat = Catalog.model_validate(raw)
    except ValidationError as exc:
        raise CatalogError(f"{origin}: {validation_problems(exc, limit=1)}", where=origin) from exc
    cues = registered_cues()
    for e in cat.entries:
        unknown = sorted(set(e.code_cues) - set(cues))
        if unknown:
            raise CatalogError(
                f"catalog entry {e.id!r} names unknown code cues {unknown}",
                where=origin,
                fix=f"known cues: {', '.join(sorted(cues))}",
            )
        unknown = sorted(set(e.facts) - set(KNOWN_FACTS))
        if unknown:
            raise CatalogError(
                f"catalog entry {e.id!r} names unknown symptom facts {unknown}",
                where=origin,
                fix=f"known facts: {', '.join(sorted(KNOWN_FACTS))}",
            )
    late = sorted(set(cat.late_failure.facts) - set(KNOWN_FACTS)) if cat.late_failure else []
    if late:
        raise CatalogError(f"late_failure names unknown symptom facts {late}", where=origin)
    for q in cat.questions:
        bad = sorted((set(q.yes) | set(q.no)) - set(cat.ids))
        if bad:
            raise CatalogError(f"question {q.id!r} names unknown causes {bad}", where=origin)
    return cat


@lru_cache(maxsize=1)
def load() -> Catalog:
    """The catalog: built-in entries and every plug-in's, checked (cached)."""
    sources = plugins.catalog_sources()
    base, rest = sources[0], sources[1:]
    return _parse(base.text, base.origin, [(f"{s.plugin}:{s.origin}", s.text) for s in rest])


def load_file(path: str | Path) -> Catalog:
    return _parse(Path(path).read_text(encoding="utf-8"), str(path))


def require_known_outcomes(cat: Catalog, probes: list[ProbeInfo]) -> None:
    """Raise CatalogError when an entry weighs a probe or an outcome tag that no registered probe declares."""
    problems = [p for p in check_probes(cat, probes) if "is not used by any catalog entry" not in p]
    if problems:
        raise CatalogError(
            f"the catalog weighs probe outcomes that do not exist: {'; '.join(problems[:5])}",
            fix="weights must name registered probes and the outcome tags they declare (`debug-agent probes`)",
        )


def check_probes(cat: Catalog, probes: list[ProbeInfo]) -> list[str]:
    """Problems between the catalog and a probe registry: unknown probes or outcome tags, unused probes."""
    known = {p.name: set(p.outcomes) for p in probes}
    problems = []
    used: set[str] = set()
    for e in cat.entries:
        for name, outcomes in e.probes.items():
            used.add(name)
            if name not in known:
                problems.append(f"{e.id}: unknown probe {name!r}")
                continue
            for tag in set(outcomes) - known[name]:
                problems.append(f"{e.id}: probe {name!r} has no outcome {tag!r}")
    for name, outcomes in (cat.late_failure.clean if cat.late_failure else {}).items():
        if name not in known or set(outcomes) - known[name]:
            problems.append(f"late_failure: probe {name!r} or its outcomes {outcomes} are not registered")
    for name in sorted(set(known) - used):
        problems.append(f"probe {name!r} is not used by any catalog entry")
    return problems
