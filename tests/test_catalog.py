"""The catalog is data: its ids are stable, and it agrees with the probe and cue registries."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from debug_agent import cues
from debug_agent.engine import catalog
from debug_agent.errors import CatalogError

# Reports, tests and users depend on these exact ids.
IDS = """layout.reshape_permute shape.broadcast loss.double_activation loss.wrong_dim loss.all_masked
numeric.unstable optim.missing_zero_grad optim.lr_too_high optim.lr_too_low optim.params_not_updated
graph.detached mode.train_at_eval mode.eval_at_train norm.batch_coupling init.dead_units grad.vanishing
grad.exploding data.label_misalignment data.leakage data.unnormalized data.stale_cache mask.causal_leak
state.cross_batch autograd.wrong_backward metric.wrong rl.bootstrap_terminal scale.loss_imbalance
attn.unscaled_scores optim.frozen_params_train optim.grad_accum_unscaled optim.scheduler_misstep loss.padding_counted
mask.padding_attended fit.overfitting fit.underfitting fit.undertrained none""".split()


def test_ids_are_exactly_the_stable_list():
    assert catalog.load().ids == IDS


def test_every_entry_is_complete():
    for e in catalog.load().entries:
        for field in ("title", "explanation", "first_action", "prediction_if_true", "prediction_if_false", "fix"):
            assert getattr(e, field).strip(), f"{e.id}.{field} is empty"
        if e.kind != "healthy":
            assert e.symptoms or e.facts, f"{e.id} has no symptom cues or facts: it could never be reached from words"


def test_probe_references_match_the_registry(probes_registry):
    infos = [spec.info() for spec in probes_registry.values()]
    assert catalog.check_probes(catalog.load(), infos) == []


def test_every_cue_exists_and_is_used():
    cat = catalog.load()
    used = {c for e in cat.entries for c in e.code_cues}
    registered = set(cues.registered_cues())
    assert used <= registered
    assert registered - used == set(), f"cues no entry uses: {registered - used}"


def test_symptom_patterns_do_not_match_empty_text():
    for e in catalog.load().entries:
        for cue in e.symptoms:
            assert not re.search(cue.pattern, "", re.I), (e.id, cue.pattern)


def test_bad_catalog_is_a_clear_error(tmp_path):
    bad = tmp_path / "c.toml"
    bad.write_text('version = "1"\nother_score = -3\n[[entries]]\nid = "Bad Id"\n')
    with pytest.raises(CatalogError, match="entries"):
        catalog.load_file(bad)
    bad.write_text(
        (Path(catalog.__file__).parent / "catalog.toml")
        .read_text()
        .replace("reshape_replaces_permute = 3.5", "no_such_cue = 1.0")
    )
    with pytest.raises(CatalogError, match="no_such_cue"):
        catalog.load_file(bad)


def test_readme_documents_every_probe(probes_registry):
    text = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    missing = [name for name in probes_registry if f"| `{name}` |" not in text]
    assert not missing, f"README probe table lacks {missing}"


def test_every_decisive_probe_outcome_weighs_against_no_defect():
    """An outcome that gives some cause a decisive weight (3 or more) is a defect seen: 'none' must lose by it."""
    cat = catalog.load()
    healthy = cat.get(cat.healthy_id)
    missing = sorted(
        f"{probe}.{tag}"
        for e in cat.entries
        if e.kind == "defect"
        for probe, table in e.probes.items()
        for tag, w in table.items()
        if w >= 3.0 and healthy.probes.get(probe, {}).get(tag, 0.0) >= 0
    )
    assert not missing, f"'none' gives no negative weight to {missing}"
