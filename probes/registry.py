"""The probe registry. Built-in probes and plug-ins register through the same `@probe` decorator.

Registration is validated when it happens and the error names the culprit, so a broken plug-in
fails loudly at import instead of producing a half-working report later.
"""

from __future__ import annotations

import inspect
import random
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from debug_agent.errors import CopyNotIsolated, RegistrationError, UsageError, validation_problems
from debug_agent.schemas import TARGET_KEYS, ProbeInfo, ProbeOption, ProbeResult, Target

NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")
TAG_RE = re.compile(r"^[a-z][a-z0-9_]*$")


class NoOptions(BaseModel):
    """For probes that take no options."""

    model_config = ConfigDict(extra="forbid")


@dataclass
class ProbeContext:
    """What a probe gets besides the target: a seed, a deadline and the cost of one training step."""

    seed: int = 0
    budget_s: float = 30.0
    device: str = "cpu"
    unit_seconds: float | None = None  # wall time of one forward+backward on the batch, when measured
    started: float = field(default_factory=time.monotonic)

    def time_left(self) -> float:
        return self.budget_s - (time.monotonic() - self.started)

    def expired(self) -> bool:
        return self.time_left() <= 0


ProbeFn = Callable[[Target, ProbeContext, Any], ProbeResult]


@dataclass(frozen=True)
class ProbeSpec:
    name: str
    fn: ProbeFn
    help: str
    doc: str
    outcomes: tuple[str, ...]
    requires: tuple[str, ...]
    cost: float
    options: type[BaseModel]
    observed_cost: float | None = None  # the cost when the target carries an observed training run
    headline: tuple[str, ...] = ()  # measurement keys shown as the probe's one figure, first present wins
    plot: str | None = None  # the kind of figure report.plots draws from this probe's measurements
    per_row: bool = False  # compares examples along the batch axis: stands aside when the inputs have none

    def info(self, provided: Iterable[str] = ()) -> ProbeInfo:
        """The probe as the planner sees it, priced for a target that provides the keys `provided`."""
        opts = [
            ProbeOption(
                name=n,
                type=getattr(f.annotation, "__name__", str(f.annotation)),
                default=f.default if isinstance(f.default, (int, float, str, bool, type(None))) else None,
                help=f.description or "",
            )
            for n, f in self.options.model_fields.items()
        ]
        return ProbeInfo(
            name=self.name,
            help=self.help,
            outcomes=list(self.outcomes),
            requires=list(self.requires),
            cost=self.observed_cost if self.observed_cost and "observation" in provided else self.cost,
            options=opts,
            options_schema=self.options.model_json_schema(),
        )

    def parse_options(self, raw: dict[str, Any] | None) -> BaseModel:
        try:
            return self.options.model_validate(raw or {})
        except ValidationError as exc:
            allowed = ", ".join(self.options.model_fields) or "none"
            raise UsageError(
                f"bad options for probe {self.name!r}: " + validation_problems(exc, default_loc="options"),
                fix=f"allowed options: {allowed}",
            ) from exc


REGISTRY: dict[str, ProbeSpec] = {}


def probe(
    *,
    outcomes: tuple[str, ...],
    requires: tuple[str, ...] = ("model", "batch"),
    cost: float = 1.0,
    observed_cost: float | None = None,
    options: type[BaseModel] = NoOptions,
    name: str | None = None,
    headline: tuple[str, ...] = (),
    plot: str | None = None,
    per_row: bool = False,
) -> Callable[[ProbeFn], ProbeFn]:
    """Register a probe. Its docstring is its help: the first line is the one-line summary.

    `headline` names the measurement keys that summarise a run in one figure (the first present is
    shown); `plot` names the kind of figure the report draws from the measurements. `observed_cost`,
    when given, is the cost on a target that carries an observed training run (`ask -- python
    train.py`), for a probe that then only reads the run's record. `per_row` marks a probe that compares
    examples along the batch axis; on inputs that share none (one graph) it is not applicable.
    """

    def register(fn: ProbeFn) -> ProbeFn:
        pname = name or fn.__name__
        culprit = f"probe {pname!r} ({fn.__module__}.{fn.__qualname__})"
        doc = inspect.getdoc(fn) or ""
        if not NAME_RE.match(pname):
            raise RegistrationError(f"{culprit}: name must be lower_snake_case")
        if pname in REGISTRY and REGISTRY[pname].fn is not fn:
            other = REGISTRY[pname].fn
            raise RegistrationError(f"{culprit}: name already registered by {other.__module__}.{other.__qualname__}")
        if not doc:
            raise RegistrationError(f"{culprit}: needs a docstring; it is the probe's help text")
        if not outcomes or not all(TAG_RE.match(t) for t in outcomes):
            raise RegistrationError(f"{culprit}: outcomes must be a non-empty tuple of lower_snake_case tags")
        unknown = [r for r in requires if r not in TARGET_KEYS]
        if unknown or "model" not in requires:
            raise RegistrationError(f"{culprit}: requires must name target keys including 'model'; bad: {unknown}")
        if not (isinstance(options, type) and issubclass(options, BaseModel)):
            raise RegistrationError(f"{culprit}: options must be a pydantic model class")
        if cost <= 0 or (observed_cost is not None and observed_cost <= 0):
            raise RegistrationError(f"{culprit}: cost and observed_cost must be positive")
        if isinstance(headline, str) or not all(TAG_RE.match(k) for k in headline):
            raise RegistrationError(f"{culprit}: headline must be a tuple of measurement keys")
        if plot is not None and not TAG_RE.match(plot):
            raise RegistrationError(f"{culprit}: plot must be a lower_snake_case figure kind")
        params = list(inspect.signature(fn).parameters)
        if len(params) != 3:
            raise RegistrationError(f"{culprit}: must take (target, ctx, options), takes {params}")
        REGISTRY[pname] = ProbeSpec(
            name=pname,
            fn=fn,
            help=doc.splitlines()[0].strip(),
            doc=doc,
            outcomes=tuple(outcomes),
            requires=tuple(requires),
            cost=float(cost),
            observed_cost=None if observed_cost is None else float(observed_cost),
            options=options,
            headline=tuple(headline),
            plot=plot,
            per_row=per_row,
        )
        return fn

    return register


def get(name: str) -> ProbeSpec:
    if name not in REGISTRY:
        raise UsageError(f"unknown probe {name!r}", fix=f"known probes: {', '.join(sorted(REGISTRY))}")
    return REGISTRY[name]


def missing_requirements(spec: ProbeSpec, target: Target) -> list[str]:
    return [key for key in spec.requires if key not in target.provided()]


def not_applicable(name: str, why: str) -> ProbeResult:
    return ProbeResult(name=name, status="not_applicable", summary=why)


class _Seeded:
    """Run a probe with fixed seeds and give every RNG its state back afterwards."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def __enter__(self) -> None:
        import numpy as np
        import torch

        self._py = random.getstate()
        self._np = np.random.get_state()
        self._torch = torch.random.get_rng_state()
        # CUDA generators too, but only when CUDA is already in use (never initialise it here).
        self._cuda = torch.cuda.get_rng_state_all() if torch.cuda.is_initialized() else None
        random.seed(self.seed)
        np.random.seed(self.seed)
        torch.manual_seed(self.seed)

    def __exit__(self, *exc: object) -> None:
        import numpy as np
        import torch

        random.setstate(self._py)
        np.random.set_state(self._np)
        torch.random.set_rng_state(self._torch)
        if self._cuda is not None:
            torch.cuda.set_rng_state_all(self._cuda)


def execute(name: str, target: Target, ctx: ProbeContext, raw_options: dict[str, Any] | None = None) -> ProbeResult:
    """Run one probe: check options and requirements, seed, time it. User-code exceptions propagate."""
    spec = get(name)
    options = spec.parse_options(raw_options)
    missing = missing_requirements(spec, target)
    if missing:
        return not_applicable(name, f"the target provides no {', '.join(missing)}")
    if spec.per_row and not target.has_batch_axis:
        sizes = ", ".join(map(str, target.unbatched_sizes))
        return not_applicable(name, f"the inputs share no batch axis (first axes {sizes}): no examples to compare")
    start = time.monotonic()
    ctx.started = start
    with _Seeded(ctx.seed):
        try:
            result = spec.fn(target, ctx, options)
        except CopyNotIsolated as exc:  # the copy would share state with the user's objects: no evidence
            result = ProbeResult(name=name, status="error", summary=str(exc)[:300], error=str(exc)[:2000])
    if result.name != name:
        raise RegistrationError(f"probe {name!r} returned a result named {result.name!r}")
    unknown = [t for t in result.outcomes if t not in spec.outcomes]
    if unknown:
        raise RegistrationError(f"probe {name!r} emitted undeclared outcome tags {unknown}")
    key = next((k for k in spec.headline if result.measurements.get(k) is not None), None)
    return result.model_copy(update={"seconds": round(time.monotonic() - start, 3), "headline": key, "plot": spec.plot})
