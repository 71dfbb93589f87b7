"""Chat questions: the catalog question whose answer is expected to separate the candidates most.

May import: schemas, the rest of the engine.
"""

from __future__ import annotations

from debug_agent.engine.pipeline import triage
from debug_agent.engine.separate import question_gain
from debug_agent.schemas import Case, Question

MIN_GAIN = 0.02  # below this (nats) a question is not worth the user's time


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
