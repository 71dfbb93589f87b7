"""Lexical similarity between a symptom and each catalog entry's own text (engine/similarity.py).

The sentences here are written for the tests (not taken from the corpus or the paraphrase set).
"""

from __future__ import annotations

import math

import pytest

from debug_agent.engine import catalog, similarity
from debug_agent.engine.evidence import WORDS_CAP, Ledger, add_similar
from debug_agent.engine.pipeline import AskOptions, ask, triage
from debug_agent.schemas import Case, Observation


def terms(text: str) -> list[str]:
    return [t for t, _ in similarity.words(text)]


def test_words_are_stemmed_folded_and_stop_words_dropped():
    assert terms("The gradients exploded") == terms("a gradient explodes") == terms("grads explode")
    assert terms("learning rate") == terms("LR") == ["lr"]
    assert terms("NaNs everywhere") == terms("nan everywhere")
    assert terms("the validation split") == terms("val split")
    assert terms("it is the and of") == []
    assert terms("requires_grad was False") == ["requiresgrad", "fals"]


def test_every_builtin_entry_has_a_reads_like_text():
    assert all(e.reads_like.strip() for e in catalog.load().entries)


@pytest.mark.parametrize(
    ("text", "cause"),
    [
        (
            "Each time I validate, the same picture gets a different answer; dropout still seems active.",
            "mode.train_at_eval",
        ),
        (
            "My pretrained backbone was supposed to stay fixed but its weights move during fine-tuning.",
            "optim.frozen_params_train",
        ),
        (
            "The decoder can peek at upcoming tokens, so its perplexity is absurdly low while sampling is garbage.",
            "mask.causal_leak",
        ),
    ],
)
def test_similar_ranks_the_described_cause_among_the_leaders(text: str, cause: str):
    matches = sorted(similarity.similar(text, catalog.load()), key=lambda m: -m.weight)
    assert cause in [m.cause_id for m in matches[:3]], [(m.cause_id, m.weight) for m in matches[:5]]


def test_weights_are_bounded_and_cite_the_words_that_matched():
    cat = catalog.load()
    text = "Gradient norms grow huge over the sequence and clipping stops the spikes."
    matches = similarity.similar(text, cat)
    assert matches and all(0 < m.weight <= cat.similarity_cap for m in matches)
    top = max(matches, key=lambda m: m.weight)
    said = {s for s, _, _ in top.pairs}
    assert said and said <= {w for _, w in similarity.words(text)}
    assert all(field in {name for name, _ in similarity.FIELDS} for _, _, field in top.pairs)
    assert '"clipping"' in similarity.describe(top) or '"spikes"' in similarity.describe(top)


def test_switched_off_or_empty_gives_nothing():
    cat = catalog.load().model_copy(update={"similarity_weight": 0.0})
    assert similarity.similar("loss explodes to nan", cat) == []
    assert similarity.similar("the and of it", catalog.load()) == []


def test_similarity_is_word_evidence_never_probe_evidence_and_is_reported():
    text = "Halfway through the run the training curve jumps all over the place and then blows up."
    tri = triage(Case(symptom=text))
    similar = [t for ts in tri.ledger.terms.values() for t in ts if t.origin == "similar"]
    assert similar
    assert all(tri.ledger.status(cid) == "untested" for cid in tri.ledger.terms)
    report = ask(Case(symptom=text), AskOptions(no_probes=True))
    if any(t.origin == "similar" for t in tri.ledger.terms[report.cause_id]):
        cited = [o for o in report.observations if "catalog text" in o.text]
        assert cited and all(o.source == "symptom" and o.kind == "observation" for o in cited)


def test_similarity_alone_does_not_spare_a_cause_the_silence_penalty():
    cat = catalog.load()
    obs = Observation(kind="observation", source="symptom", text="t")
    plain, both = Ledger(cat), Ledger(cat)
    plain.add("grad.exploding", "fact", 2.0, obs)
    both.add("grad.exploding", "fact", 2.0, obs)
    add_similar(both, [similarity.Match("optim.lr_too_low", 1.0, (("slow", "slowly", "reads_like"),))])
    quiet = cat.get("optim.lr_too_low")
    soft = WORDS_CAP * math.tanh(1.0 / WORDS_CAP)
    assert both.score(quiet) == pytest.approx(plain.score(quiet) + soft)  # added, but the silence still counts
    assert both.total("optim.lr_too_low", "probe") == 0
