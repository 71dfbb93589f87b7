"""Choose probes: the ones whose outcomes best separate the current candidates, per unit of cost.

Each cause predicts, for each probe, the outcome its catalog entry weighs highest (its signature),
or a clean result. A probe's value is how much it splits the credence mass into groups with
different predicted outcomes (the entropy gain of the joint partition), plus a share
(REPEAT_VALUE) of what it would split on its own, since probes are not infallible and a second
test of the same split is worth something. We pick greedily by gain per
cost until the gain is negligible or the budget (in forward+backward units) is spent. Then every
applicable probe that costs at most SCREEN_COST units runs too, as a screen for causes nobody suspected.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from debug_agent.schemas import Catalog, ProbeInfo, ProbeRequest, TargetInfo

CLEAN = "<clean>"
MIN_GAIN = 0.005  # nats; below this a probe tells us nothing we do not know
LEAD = 0.2  # a cause at or above this credence is a leading candidate: its direct test is always planned
RUNNER_UP = 0.1  # after a leading one, each other top-three cause at or above this gets its direct test too
# Probes miss and false-alarm now and then, so a second probe that splits the candidates the same way
# as one already chosen is still worth this fraction of what it would tell on its own.
REPEAT_VALUE = 0.3
# Probes this cheap (a few forwards) screen for causes no one suspected yet (inputs a thousand times too
# large, a metric that is not an average): they run whenever they apply and the budget allows, chosen or not.
SCREEN_COST = 3.0


@dataclass
class Skipped:
    name: str
    why: str


def signature(catalog: Catalog, cause_id: str, probe: str) -> str:
    """The outcome this cause would most likely produce on this probe."""
    table = catalog.get(cause_id).probes.get(probe, {})
    positive = [(w, tag) for tag, w in table.items() if w > 0]
    if catalog.get(cause_id).kind == "healthy" or not positive:
        return CLEAN
    return max(positive)[1]


def _entropy(groups: dict[tuple[str, ...], float]) -> float:
    return -sum(p * math.log(p) for p in groups.values() if p > 0)


def _partition(cred: dict[str, float], catalog: Catalog, probes: list[str]) -> dict[tuple[str, ...], float]:
    groups: dict[tuple[str, ...], float] = {}
    for cause, p in cred.items():
        key = tuple(CLEAN if cause not in catalog.ids else signature(catalog, cause, name) for name in probes)
        groups[key] = groups.get(key, 0.0) + p
    return groups


def applicable(info: ProbeInfo, target: TargetInfo) -> str | None:
    """None when the probe can run on this target, else why not."""
    missing = [k for k in info.requires if k not in target.provided]
    if missing:
        return f"the target provides no {', '.join(missing)}"
    return None


def scaled(info: ProbeInfo, units_left: float) -> ProbeRequest | None:
    """A request that fits the remaining budget, shrinking the probe's scalable option if it has one."""
    if info.cost <= units_left:
        return ProbeRequest(name=info.name)
    opt = next((o for o in info.options if o.name == info.options_schema.get("x-scale-option")), None)
    if opt is None or not isinstance(opt.default, int):
        return None
    value = int(opt.default * units_left / info.cost)
    floor = int(info.options_schema.get("x-scale-min", 1))
    if value < floor:
        return None
    return ProbeRequest(
        name=info.name, options={opt.name: value}, reason=f"{opt.name} cut to {value} to fit the budget"
    )


def plan(
    catalog: Catalog, cred: dict[str, float], probes: list[ProbeInfo], target: TargetInfo, budget_units: float
) -> tuple[list[ProbeRequest], list[Skipped]]:
    """Greedy information-per-cost selection under a budget of forward+backward units."""
    chosen: list[ProbeRequest] = []
    skipped: list[Skipped] = []
    pool: dict[str, ProbeInfo] = {}
    for info in probes:
        if any(catalog.get(c).probes.get(info.name) for c in catalog.ids):
            why = applicable(info, target)
            if why:
                skipped.append(Skipped(info.name, why))
            else:
                pool[info.name] = info
    names: list[str] = []
    left = budget_units
    for cause, name in _direct_tests(catalog, cred, pool):
        if name in pool and (first := scaled(pool[name], left)) is not None:
            chosen.append(first.model_copy(update={"reason": first.reason or f"the direct test of {cause}"}))
            names.append(first.name)
            left -= pool[first.name].cost if not first.options else left
            del pool[first.name]
    base = _entropy(_partition(cred, catalog, names))
    alone = {name: _entropy(_partition(cred, catalog, [name])) for name in pool}
    while pool:
        best: tuple[float, float, ProbeRequest] | None = None
        for name, info in pool.items():
            split = _entropy(_partition(cred, catalog, names + [name])) - base
            gain = (1 - REPEAT_VALUE) * split + REPEAT_VALUE * alone[name]
            req = scaled(info, left)
            if req is None or gain < MIN_GAIN:
                continue
            value = gain / max(info.cost if not req.options else left, 1e-9)
            if best is None or value > best[0]:
                best = (value, gain, req)
        if best is None:
            break
        _, gain, req = best
        cost = pool[req.name].cost if not req.options else left
        chosen.append(req.model_copy(update={"reason": req.reason or f"separates candidates ({gain:.2f} nats)"}))
        names.append(req.name)
        base = _entropy(_partition(cred, catalog, names))
        left -= cost
        del pool[req.name]
    for name, info in sorted(pool.items()):
        if info.cost <= SCREEN_COST and info.cost <= left:
            chosen.append(ProbeRequest(name=name, reason="cheap screen (runs whenever it applies)"))
            left -= info.cost
    pool = {n: i for n, i in pool.items() if n not in {r.name for r in chosen}}
    for name, info in pool.items():
        if scaled(info, left) is None and info.cost > left:
            skipped.append(
                Skipped(
                    name, f"costs about {info.cost:.0f} forward+backward passes; {max(left, 0):.0f} left in the budget"
                )
            )
    return chosen, skipped


def _direct_tests(catalog: Catalog, cred: dict[str, float], pool: dict[str, ProbeInfo]) -> list[tuple[str, str]]:
    """(cause, probe) pairs: the strongest confirming probe of the leading cause, then of each runner-up in
    the top three, planned before the greedy choice.

    The entropy criterion counts a second probe that splits the candidates the same way as worth
    nothing, so a cause separated early by an indirect probe (metric.wrong by shape_audit) would
    never get the experiment that tests it directly (metric_audit); and a costly direct test of a
    runner-up can fall just under MIN_GAIN when other weights move its credence a little. Which probe
    is direct is data: the one whose outcome the catalog weighs highest for the cause.
    """
    ranked = sorted(
        ((p, c) for c, p in cred.items() if c in catalog.ids and catalog.get(c).kind != "healthy"), reverse=True
    )[:3]
    out = []
    for i, (p, cause) in enumerate(ranked):
        if p < (LEAD if i == 0 else RUNNER_UP):
            break
        tests = [(max(table.values()), name) for name, table in catalog.get(cause).probes.items() if table]
        best = max((t for t in tests if t[0] > 0), default=None)
        if best is not None and best[1] in pool:
            out.append((cause, best[1]))
    return out
