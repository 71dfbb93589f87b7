"""Triage, planning and weighing, without a worker: evidence in, credences and a report out."""

from __future__ import annotations

import pytest

from debug_agent.engine import catalog, planner
from debug_agent.engine.evidence import OTHER, Ledger, add_cues, add_probes, add_symptoms, match_symptoms
from debug_agent.engine.narrative import compose
from debug_agent.schemas import CodeCue, ProbeInfo, ProbeOption, ProbeResult, TargetInfo


def ledger(symptom: str = "", cues: list[CodeCue] | None = None, results: list[ProbeResult] | None = None) -> Ledger:
    led = Ledger(catalog.load())
    add_symptoms(led, match_symptoms(symptom, led.catalog))
    add_cues(led, cues or [])
    add_probes(led, results or [])
    return led


def cue(cue_id: str, line: int = 3) -> CodeCue:
    return CodeCue(
        cue_id=cue_id,
        origin="diff",
        file="model.py",
        line=line,
        code="x = x.reshape(T, B, C)",
        detail="replaces a transpose",
    )


def result(name: str, status: str, *tags: str) -> ProbeResult:
    return ProbeResult(name=name, status=status, outcomes=list(tags), summary=f"{name} {status}")


def test_credences_sum_to_at_most_one_and_leave_room_for_other():
    cred = ledger("loss is nan", [cue("reshape_replaces_permute")]).credences()
    assert abs(sum(cred.values()) - 1) < 1e-9
    assert cred[OTHER] > 0
    assert max(v for k, v in cred.items() if k != OTHER) <= catalog.load().max_credence


def test_symptom_phrases_are_quoted_as_evidence():
    led = ledger("Predictions change depending on which other examples are in the batch.")
    terms = led.terms["layout.reshape_permute"]
    assert any(t.origin == "symptom" and "other examples are in the batch" in t.obs.text for t in terms)


def test_probe_contradicts_code_cue_and_wins():
    led = ledger("", [cue("reshape_replaces_permute")], [result("dependency", "passed", "batch_independent")])
    assert led.status("layout.reshape_permute") == "contradicted"
    assert led.contradicted_cues("layout.reshape_permute")
    hyps = led.hypotheses()
    assert hyps[0].cause_id != "layout.reshape_permute"
    report = compose(
        led, [cue("reshape_replaces_permute")], [result("dependency", "passed", "batch_independent")], [], {}
    )
    layout = [h for h in report.hypotheses if h.cause_id == "layout.reshape_permute"]
    assert not layout or layout[0].credence < 0.1


def test_cue_alone_is_not_a_finding_but_cue_plus_probe_is():
    cue_only = ledger("", [cue("reshape_replaces_permute")]).credences()
    both = ledger(
        "", [cue("reshape_replaces_permute")], [result("dependency", "failed", "batch_leak", "batch_leak_structured")]
    ).credences()
    assert both["layout.reshape_permute"] > 0.9 > cue_only["layout.reshape_permute"]


def test_vague_symptom_and_passing_probes_give_none():
    results = [
        result("dependency", "passed", "batch_independent"),
        result("shape_audit", "passed", "shapes_consistent"),
        result("overfit_one_batch", "passed", "converged"),
        result("step_audit", "passed", "grads_cleared", "params_updated", "grad_path_ok"),
    ]
    led = ledger("I want to be sure the model is fine", results=results)
    report = compose(led, [], results, [], {})
    assert report.cause_id == "none"
    assert report.confidence < 0.97
    assert "No defect found" in report.root_cause
    assert report.immediate_changes == []


def test_report_evidence_cites_real_sources():
    results = [
        ProbeResult(
            name="shape_audit",
            status="failed",
            outcomes=["broadcast_expansion"],
            summary="1 shape hazard",
            findings=[{"text": "`sub` broadcast (8, 1) vs (8,)", "where": "t.py:4", "code": "pred - y"}],
        )
    ]
    led = ledger("predictions are all the same value", results=results)
    report = compose(led, [], results, [], {})
    assert report.cause_id == "shape.broadcast"
    sources = {o.source for o in report.observations}
    assert {"symptom", "probe:shape_audit"} <= sources
    assert "t.py:4" in report.first_action
    assert all(e.startswith(("Observation:", "Inference:")) for e in report.evidence)


def info(name: str, cost: float, *outcomes: str, requires: tuple[str, ...] = ("model", "batch")) -> ProbeInfo:
    return ProbeInfo(name=name, help="", outcomes=list(outcomes), requires=list(requires), cost=cost)


TARGET = TargetInfo(
    model_class="M",
    n_params=10,
    n_trainable=10,
    provided=["model", "batch", "loss_fn"],
    input_shapes=[[8, 4]],
    input_dtypes=["float32"],
    batch_size=8,
)


def test_plan_prefers_the_discriminating_probe_and_skips_what_cannot_run():
    cred = ledger(
        "predictions change with the other examples in the batch", [cue("reshape_replaces_permute")]
    ).credences()
    probes = [
        info("dependency", 4, "batch_leak_structured", "batch_independent"),
        info("metric_audit", 1, "metric_ok", requires=("model", "batch", "metric_fn")),
        info("overfit_one_batch", 200, "converged", "stalled", requires=("model", "batch", "loss_fn")),
    ]
    reqs, skipped = planner.plan(catalog.load(), cred, probes, TARGET, budget_units=1000)
    assert reqs[0].name == "dependency"
    assert [s.name for s in skipped] == ["metric_audit"] and "metric_fn" in skipped[0].why


def test_plan_runs_cheap_screens_nobody_asked_for_but_not_expensive_ones(monkeypatch):
    """With no probe worth its cost to the greedy choice, the 1-unit data check still runs; a 10-unit one does not."""
    monkeypatch.setattr(planner, "MIN_GAIN", 1e9)
    cred = ledger("the loss oscillates wildly with a learning rate of 1.0").credences()
    probes = [
        info("data_audit", 1, "features_unscaled", "features_scaled"),
        info("grad_check", 10, "grads_match", "backward_mismatch"),
    ]
    reqs, _ = planner.plan(catalog.load(), cred, probes, TARGET, budget_units=1000)
    assert [(r.name, r.reason) for r in reqs] == [("data_audit", "cheap screen (runs whenever it applies)")]
    reqs, _ = planner.plan(catalog.load(), cred, probes, TARGET, budget_units=0.5)
    assert not reqs


def test_plan_scales_a_probe_down_to_fit_the_budget():
    cred = ledger("the loss barely moves").credences()
    probes = [
        info("overfit_one_batch", 200, "converged", "stalled", requires=("model", "batch", "loss_fn")).model_copy(
            update={
                "options": [ProbeOption(name="steps", type="int", default=200)],
                "options_schema": {"x-scale-option": "steps", "x-scale-min": 30},
            }
        )
    ]
    reqs, _ = planner.plan(catalog.load(), cred, probes, TARGET, budget_units=50)
    assert reqs and reqs[0].options == {"steps": 50}
    reqs, skipped = planner.plan(catalog.load(), cred, probes, TARGET, budget_units=10)
    assert not reqs and skipped and "budget" in skipped[0].why


@pytest.mark.parametrize(
    "text,expected",
    [
        ("loss becomes nan after a few steps and explodes", {"optim.lr_too_high", "grad.exploding"}),
        ("validation accuracy jumps around between runs of the same checkpoint", {"mode.train_at_eval"}),
        ("the loss barely moves even after many epochs", {"optim.lr_too_low"}),
        ("validation accuracy is 99% but production is much worse", {"data.leakage"}),
    ],
)
def test_words_alone_rank_plausible_causes(text, expected):
    top3 = [h.cause_id for h in ledger(text).hypotheses()[:3]]
    assert expected & set(top3), top3


def test_a_late_failure_discounts_short_horizon_clean_results():
    """NaN only after many steps: a 40-step watch that stayed finite weighs less than it does for NaN at once."""
    from debug_agent.engine.evidence import Ledger, add_facts, add_probes
    from debug_agent.engine.facts import extract
    from debug_agent.schemas import ProbeResult

    clean = ProbeResult(name="nonfinite_trace", status="passed", outcomes=["all_finite"], summary="finite")

    def weight(text: str) -> float:
        ledger = Ledger(catalog.load())
        add_facts(ledger, extract(text))
        before = ledger.total("numeric.unstable", "probe")
        add_probes(ledger, [clean])
        return ledger.total("numeric.unstable", "probe") - before

    late = weight("The loss is fine for thousands of iterations, then it turns NaN at iteration 12000.")
    early = weight("The loss is NaN from the very first step.")
    full = catalog.load().get("numeric.unstable").probes["nonfinite_trace"]["all_finite"]
    assert early == full and late == pytest.approx(full * catalog.load().late_failure.discount)


def test_behind_a_confident_top_cause_the_rest_are_ranked_by_evidence_not_catalog_order():
    """The others round to 0.0 credence, yet their order is the report's second and third guess."""
    led = ledger(
        "the loss becomes nan after a few hundred steps and the gradient norm keeps growing",
        results=[result("shape_audit", "failed", "broadcast_expansion"), result("dependency", "failed", "batch_leak")],
    )
    hyps = led.hypotheses()
    assert hyps[0].credence >= 0.9
    scores = {e.id: led.score(e) for e in led.catalog.entries}
    rest = [h.cause_id for h in hyps[1:]]
    assert [scores[c] for c in rest] == sorted((scores[c] for c in rest), reverse=True)
    assert {"optim.lr_too_high", "grad.exploding", "numeric.unstable"} & set(rest[:3])


def test_a_clean_probe_result_is_never_the_leading_evidence_for_a_defect():
    """A passed probe may nudge a cause up (the catalog weighs clean results), but it is not why we suspect it."""
    symptom = "the classification accuracy of my multi-task model stays near 50% while the total loss goes down"
    clean = [result("train_observation", "passed", "grads_cleared", "params_updated", "loss_decreasing", "clean")]
    led = ledger(symptom, results=clean)
    report = compose(led, [], clean, [], {})
    assert report.cause_id == "scale.loss_imbalance"
    assert "Leading evidence: the symptom" in report.root_cause


def test_a_symptom_pattern_whose_key_word_is_denied_does_not_count():
    """'no sign of divergence' is not a diverging critic; a pattern that spells its own negation still matches."""
    cat = catalog.load()
    denied = {m.cause_id for m in match_symptoms("It flattened at a high value; no sign of divergence or NaN.", cat)}
    stated = {m.cause_id for m in match_symptoms("The critic value estimates diverge after 10k steps.", cat)}
    assert "rl.bootstrap_terminal" in stated and "rl.bootstrap_terminal" not in denied
    own = {m.cause_id for m in match_symptoms("The weights don't change after optimizer.step().", cat)}
    assert "optim.params_not_updated" in own


def test_a_not_bug_explanation_gets_the_healthy_credit_for_clean_outcomes_its_table_leaves_out():
    """Overfitting predicts a clean probe as "no defect" does: a clean outcome its own table does not weigh
    counts as much for it as for the healthy entry; a defect entry with a table gets only that table."""
    cat = catalog.load()
    clean = result("mode_audit", "passed", "forward_deterministic")
    healthy_w = cat.get(cat.healthy_id).probes["mode_audit"]["forward_deterministic"]
    overfit = cat.get("fit.overfitting").probes["mode_audit"]
    batch_stats = cat.get("norm.batch_coupling").probes["mode_audit"]
    assert healthy_w > 0 and "forward_deterministic" not in overfit and "forward_deterministic" not in batch_stats
    led = ledger(results=[clean])
    assert led.total("fit.overfitting", "probe") == pytest.approx(healthy_w)
    assert led.total("norm.batch_coupling", "probe") == 0
