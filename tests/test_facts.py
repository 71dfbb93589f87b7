"""Symptom facts: numbers read against reference values, trends and relations, and what the catalog makes of them.

The sentences here are written for the tests (not taken from the corpus or the paraphrase set).
"""

from __future__ import annotations

import pytest

from debug_agent.engine import catalog
from debug_agent.engine.facts import KNOWN, classes, extract
from debug_agent.engine.pipeline import AskOptions, ask
from debug_agent.schemas import Case


def ids(text: str) -> set[str]:
    return {f.id for f in extract(text)}


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("On our 10-class task the cross-entropy sits at 2.302 for the whole run.", "loss_at_chance"),
        ("The loss is stuck at 0.6931 and never moves.", "loss_at_chance"),  # ln 2, classes not stated
        ("Perplexity hovers around 1000 with a vocabulary of 1,000 tokens.", "loss_at_chance"),
        ("Our logged accuracy reads 180% on the validation split.", "metric_impossible"),
        ("Validation accuracy is reported as 1.37 after epoch 3.", "metric_impossible"),
        ("The training loss prints 0.0000 from step one.", "loss_zero"),
        ("The KL-regularised cross-entropy loss comes out at -3.2.", "loss_negative"),
        ("Everything becomes nan on the very first batch.", "nonfinite_immediate"),
        ("It runs fine, then after about 3000 steps the loss turns into NaN.", "nonfinite_later"),
        ("Validation accuracy is 34% on our 3 classes.", "acc_at_chance"),
        ("Train accuracy 99% while validation accuracy is 51% for this binary task.", "train_fits_val_chance"),
        ("Train loss keeps falling but validation loss has been rising since epoch 12.", "train_improves_val_worsens"),
        ("Evaluating the same checkpoint twice gives two different F1 scores.", "eval_nondeterministic"),
        ("With batch size 1 the outputs look different from batches of 64.", "batch_dependent"),
        ("The prediction for one sample changes when other samples in the batch are swapped.", "others_affect_output"),
        ("Position 5 can attend to future tokens.", "future_tokens"),
        ("The gradient norm grows by orders of magnitude over a few hundred steps.", "grad_norm_grows"),
        ("Both training and validation loss plateau at a high value.", "train_poor"),
        ("The loss was still decreasing when we stopped after 8 epochs.", "still_improving"),
        ("Validation loss is consistently lower than the training loss.", "val_better_than_train"),
        ("After the refactor the frozen backbone weights still change every step.", "frozen_still_change"),
        ("The learning rate is almost zero after the first epoch.", "lr_collapses"),
        ("The reported loss depends on how much padding the batch has.", "loss_depends_padding"),
    ],
)
def test_fact_is_read(text: str, fact: str):
    assert fact in ids(text)


def test_reference_values_need_a_match():
    assert "loss_at_chance" not in ids("The loss is 1.7 on our 10-class task.")
    assert "metric_impossible" not in ids("Validation accuracy is 87%.")
    assert "loss_zero" not in ids("The loss is 0.25.")
    assert "nonfinite_immediate" not in ids("After 500 steps the loss is nan.")


def test_number_of_classes_is_read_or_deduced():
    assert classes("a 5-way classifier") == 5
    assert classes("fine-tuning on CIFAR-100") == 100
    assert classes("a binary sentiment model") == 2
    assert classes("no class count here") is None


def test_each_fact_keeps_its_sentence():
    facts = extract("All good so far. Then the loss went to nan after 200 steps.")
    f = next(f for f in facts if f.id == "nonfinite_later")
    assert f.phrase == "Then the loss went to nan after 200 steps."


def test_catalog_weighs_only_known_facts_and_every_fact_is_used():
    used = {k for e in catalog.load().entries for k in e.facts}
    assert used <= set(KNOWN)
    unused = set(KNOWN) - used
    assert not unused, f"facts that no catalog entry weighs: {sorted(unused)}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Training loss keeps going down every epoch while the validation loss started rising after epoch 10.",
            "fit.overfitting",
        ),
        ("Our digit classifier's loss has been at 2.30 since the start and accuracy is at chance.", None),
        (
            "The loss was still going down steadily when I stopped after 5 epochs; samples are still blurry.",
            "fit.undertrained",
        ),
        (
            "Even on the training set the accuracy is stuck around 60%; both curves plateau at a high loss.",
            "fit.underfitting",
        ),
        ("The accuracy we log climbs to 140% halfway through training.", "metric.wrong"),
    ],
)
def test_facts_rank_the_cause(text: str, expected: str | None):
    report = ask(Case(symptom=text), AskOptions(no_probes=True))
    top3 = [h.cause_id for h in report.hypotheses[:3]]
    if expected:
        assert expected in top3
    assert "none" != report.cause_id


def test_no_probe_run_is_a_ranking_never_no_defect_found():
    text = "Please sanity-check my model before I start a long training run."
    report = ask(Case(symptom=text), AskOptions(no_probes=True))
    assert report.cause_id != catalog.load().healthy_id
    assert "No defect found" not in report.root_cause
    assert report.root_cause.startswith("No probe ran")
    assert "--target" in report.first_action and "probe" in report.first_action


def test_no_probe_first_action_names_the_separating_experiment():
    text = "After the refactor, validation accuracy differs between two evaluations of the same checkpoint."
    report = ask(Case(symptom=text), AskOptions(no_probes=True))
    top2 = [h.cause_id for h in report.hypotheses if h.cause_id != "none"][:2]
    assert set(top2) <= {h.cause_id for h in report.hypotheses[:3]}
    assert "`" in report.first_action and "predicts" in report.first_action
    assert report.first_action.startswith("To tell")
