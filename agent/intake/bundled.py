"""The bundled examples: each folder under examples/ with an example.toml is one."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from debug_agent.errors import UsageError


@dataclass(frozen=True)
class Example:
    name: str
    folder: Path
    description: str
    expect: str

    @property
    def target(self) -> Path | None:
        """None for examples that rest on the symptom and diff alone."""
        p = self.folder / "target.py"
        return p if p.exists() else None

    @property
    def symptom(self) -> Path:
        return self.folder / "symptom.txt"

    @property
    def diff(self) -> Path | None:
        p = self.folder / "change.diff"
        return p if p.exists() else None


def root() -> Path:
    return Path(str(files("debug_agent.examples")))


def all_examples() -> list[Example]:
    out = []
    for meta in sorted(root().glob("*/example.toml")):
        data = tomllib.loads(meta.read_text(encoding="utf-8"))
        out.append(
            Example(
                name=meta.parent.name,
                folder=meta.parent,
                description=data.get("description", ""),
                expect=data.get("expect", "none"),
            )
        )
    return out


def get(name: str) -> Example:
    for ex in all_examples():
        if ex.name == name:
            return ex
    names = ", ".join(e.name for e in all_examples())
    raise UsageError(f"no bundled example named {name!r}", fix=f"bundled examples: {names}")
