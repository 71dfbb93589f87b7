"""Load the failure-mode catalog (catalog.toml) into pydantic models and check it against the cues."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib.resources import files
from pathlib import Path

from pydantic import ValidationError

from .cues import _load_rules
from .errors import CatalogError
from .schemas import Catalog, ProbeInfo


def _parse(text: str, origin: str) -> Catalog:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{origin} is not valid TOML: {exc}", where=origin) from exc
    try:
        cat = Catalog.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(map(str, first["loc"]))
        raise CatalogError(f"{origin}: {loc}: {first['msg']}", where=origin) from exc
    cues = _load_rules()
    for e in cat.entries:
        unknown = sorted(set(e.code_cues) - set(cues))
        if unknown:
            raise CatalogError(
                f"catalog entry {e.id!r} names unknown code cues {unknown}",
                where=origin,
                fix=f"known cues: {', '.join(sorted(cues))}",
            )
    for q in cat.questions:
        bad = sorted((set(q.yes) | set(q.no)) - set(cat.ids))
        if bad:
            raise CatalogError(f"question {q.id!r} names unknown causes {bad}", where=origin)
    return cat


@lru_cache(maxsize=1)
def load() -> Catalog:
    """The bundled catalog (cached)."""
    text = files("debug_agent").joinpath("catalog.toml").read_text(encoding="utf-8")
    return _parse(text, "catalog.toml")


def load_file(path: str | Path) -> Catalog:
    return _parse(Path(path).read_text(encoding="utf-8"), str(path))


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
    for name in sorted(set(known) - used):
        problems.append(f"probe {name!r} is not used by any catalog entry")
    return problems
