"""Chat questions: the catalog question whose answer is expected to separate the candidates most.

May import: schemas, the rest of the engine.
"""

from __future__ import annotations

import math

from debug_agent.engine.pipeline import triage
from debug_agent.schemas import Case, Question

MIN_GAIN = 0.02  # below this (nats) a question is not worth the user's time


def _entropy(p: dict[str, float]) -> float:
    return -sum(v * math.log(v) for v in p.values() if v > 0)


def question_gain(q: Question, cred: dict[str, float]) -> float:
    """Expected drop in entropy of the credences from hearing the answer to `q`."""
    py = {c: 1 / (1 + math.exp(-(q.yes.get(c, 0.0) - q.no.get(c, 0.0)))) for c in cred}
    p_yes = sum(cred[c] * py[c] for c in cred)
    after = 0.0
    for answer, p_a in (("yes", p_yes), ("no", 1 - p_yes)):
        if p_a <= 0:
            continue
        post = {c: cred[c] * (py[c] if answer == "yes" else 1 - py[c]) / p_a for c in cred}
        after += p_a * _entropy(post)
    return _entropy(cred) - after


def next_question(case: Case, asked: list[str]) -> Question | None:
    """The unasked question with the largest expected information gain, or None when none is worth it."""
    tri = triage(case)
    cred = tri.ledger.credences()
    best, gain = None, MIN_GAIN
    for q in tri.ledger.catalog.questions:
        if q.id in asked:
            continue
        g = question_gain(q, cred)
        if g > gain:
            best, gain = q, g
    return best
