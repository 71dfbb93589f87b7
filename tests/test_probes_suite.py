"""Every probe on the bundled examples: it fails on the buggy target of each cause it can confirm and
passes on every healthy target. Probes run in-process here (the CLI tests cover the worker)."""

from __future__ import annotations

import runpy

import pytest

import debug_agent.probes as P
from debug_agent.engine import catalog
from debug_agent.intake import bundled
from debug_agent.isolation import probe_registry
from debug_agent.schemas import Target

EXAMPLES = {e.name: e for e in bundled.all_examples()}
BUGGY = [e for e in EXAMPLES.values() if e.expect != "none" and e.target is not None]
HEALTHY = [e for e in EXAMPLES.values() if e.expect == "none"]


def load(name: str) -> Target:
    ex = EXAMPLES[name]
    return Target.model_validate(runpy.run_path(str(ex.target))["make_target"]())


def run(name: str, target: Target):
    probe_registry()
    return P.execute(name, target, P.ProbeContext(seed=0, budget_s=60))


def test_every_testable_entry_has_a_buggy_example():
    cat = catalog.load()
    covered = {e.expect for e in BUGGY}
    testable = {e.id for e in cat.entries if e.testable and e.id != "none"}
    assert testable <= covered, f"no buggy example for {testable - covered}"
    assert len(HEALTHY) >= 4


@pytest.mark.parametrize("example", BUGGY, ids=lambda e: e.name)
def test_a_probe_confirms_each_buggy_example(example):
    entry = catalog.load().get(example.expect)
    target = load(example.name)
    confirmed = []
    for probe_name in entry.probes:
        result = run(probe_name, target)
        if entry.supporting(probe_name) & set(result.outcomes):
            confirmed.append((probe_name, result.outcomes))
    assert confirmed, f"no probe confirmed {example.expect} on {example.name}"


@pytest.mark.parametrize("example", HEALTHY, ids=lambda e: e.name)
def test_no_probe_fails_on_a_healthy_example(example, probes_registry):
    target = load(example.name)
    for name in probes_registry:
        result = run(name, target)
        assert result.status != "failed", f"{name} failed on healthy {example.name}: {result.summary}"
        assert result.status != "error", f"{name} errored on {example.name}: {result.error}"
