"""What the user handed over (a Case) and what static analysis found in it."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue


class DiffLine(BaseModel):
    """One line of a unified diff. `line` is the new-file line for '+' and ' ', the old one for '-'."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["+", "-", " "]
    line: int
    text: str


class DiffHunk(BaseModel):
    model_config = ConfigDict(extra="forbid")

    file: str
    old_start: int
    new_start: int
    header: str = ""
    lines: list[DiffLine] = Field(default_factory=list)

    def as_text(self, limit: int = 60) -> str:
        """The hunk as diff text (for the LLM and reports), cut to `limit` lines."""
        out = [f"@@ {self.file} -{self.old_start} +{self.new_start} @@ {self.header}".rstrip()]
        out += [f"{ln.kind}{ln.text}" for ln in self.lines[:limit]]
        if len(self.lines) > limit:
            out.append(f"... ({len(self.lines) - limit} more lines)")
        return "\n".join(out)


class ParsedDiff(BaseModel):
    """A unified diff, parsed. Binary files are listed but carry no hunks."""

    model_config = ConfigDict(extra="forbid")

    files: list[str] = Field(default_factory=list)
    binary_files: list[str] = Field(default_factory=list)
    hunks: list[DiffHunk] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list, description="what was cut or skipped, for the report")


class CodeCue(BaseModel):
    """A static cue: a line of the diff or of the target's source that matches a known bug shape."""

    model_config = ConfigDict(extra="forbid")

    cue_id: str
    origin: Literal["diff", "source"]
    file: str
    line: int
    code: str
    detail: str

    @property
    def source(self) -> str:
        return f"{self.origin}:{self.file}:{self.line}"


class SymptomMatch(BaseModel):
    """A phrase of the user's symptom that matched a catalog entry's symptom cue."""

    model_config = ConfigDict(extra="forbid")

    cause_id: str
    phrase: str
    weight: float


class TargetRef(BaseModel):
    """`--target FILE.py[:FUNC]` as given."""

    model_config = ConfigDict(extra="forbid")

    path: str
    func: str = "make_target"

    @classmethod
    def parse(cls, spec: str) -> TargetRef:
        path, sep, func = spec.rpartition(":")
        # A Windows drive letter or a plain path has no function part.
        if not sep or not func.isidentifier() or not path:
            return cls(path=spec)
        return cls(path=path, func=func)


class SourceSpan(BaseModel):
    """A piece of the user's code the worker located (model forward, loss, step...)."""

    model_config = ConfigDict(extra="forbid")

    role: str
    file: str
    first_line: int
    text: str


class TargetInfo(BaseModel):
    """What the worker learnt when it loaded the target (no tensors, safe to ship)."""

    model_config = ConfigDict(extra="forbid")

    model_class: str
    n_params: int
    n_trainable: int
    provided: list[str] = Field(description="target keys the user supplied")
    input_shapes: list[list[int]]
    input_dtypes: list[str]
    target_shape: list[int] | None = None
    output_shape: list[int] | None = None
    batch_size: int
    causal: bool = False
    sequence_dim: int = 1
    spans: list[SourceSpan] = Field(default_factory=list)
    extra: dict[str, JsonValue] = Field(default_factory=dict)


class Case(BaseModel):
    """Everything the engine starts from."""

    model_config = ConfigDict(extra="forbid")

    symptom: str = ""
    diff: ParsedDiff | None = None
    target: TargetRef | None = None
    answers: dict[str, bool] = Field(
        default_factory=dict, description="catalog question id -> the user's yes/no (chat)"
    )
    notes: list[str] = Field(default_factory=list, description="intake notes: what was cut, redacted or skipped")
