"""Which experiment (a probe, or a question the user can answer) would separate the top candidates.

Used when no probe has run: the report then ranks candidates and names the experiment that tells the
leading two apart, from the catalog's probe tables (each cause's predicted outcome) and its questions.

May import: schemas, the engine's planner.
"""

from __future__ import annotations

import math

from debug_agent.engine.planner import CLEAN, signature
from debug_agent.schemas import Catalog, Question

# What a target file must provide for the probes to run (see the README's target protocol).
TARGET_HINT = "give --target FILE.py (a make_target() returning the model, a batch, loss_fn and optimizer)"


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


def _strength(cat: Catalog, cause: str, probe: str, tag: str) -> float:
    return abs(cat.get(cause).probes.get(probe, {}).get(tag, 0.0))


def best_probe(cat: Catalog, ids: list[str]) -> tuple[str, dict[str, str]] | None:
    """The probe whose predicted outcomes differ most among `ids` (ties: the stronger prediction)."""
    names = sorted({p for c in ids for p in cat.get(c).probes})
    best: tuple[tuple[int, float], str, dict[str, str]] | None = None
    for name in names:
        sig = {c: signature(cat, c, name) for c in ids}
        if sig[ids[0]] == sig[ids[1]]:
            continue
        strength = sum(_strength(cat, c, name, t) for c, t in sig.items() if t != CLEAN)
        key = (len(set(sig.values())), strength)
        if best is None or key > best[0]:
            best = (key, name, sig)
    return (best[1], best[2]) if best else None


def best_question(cat: Catalog, cred: dict[str, float]) -> Question | None:
    """The catalog question with the largest expected information gain over these credences."""
    scored = [(question_gain(q, cred), q) for q in cat.questions]
    scored = [(g, q) for g, q in scored if g > 0.02]
    return max(scored, key=lambda gq: gq[0])[1] if scored else None


def _outcome(tag: str) -> str:
    return "a clean result" if tag == CLEAN else f"`{tag}`"


def separating_action(cat: Catalog, cred: dict[str, float], ids: list[str]) -> str:
    """One or two sentences: the probe (and what to provide) or the question that separates `ids`."""
    if len(ids) < 2:
        return ""
    a, b = cat.get(ids[0]), cat.get(ids[1])
    parts = []
    if found := best_probe(cat, ids[:3]):
        name, sig = found
        parts.append(
            f"To tell {a.title} ({a.id}) from {b.title} ({b.id}), run the `{name}` probe: {TARGET_HINT} so it can "
            f"run; {a.id} predicts {_outcome(sig[a.id])}, {b.id} predicts {_outcome(sig[b.id])}."
        )
    top = {c: cred[c] for c in ids}
    z = sum(top.values()) or 1.0
    if q := best_question(cat, {c: p / z for c, p in top.items()}):
        lead = "Or answer" if parts else f"To tell {a.title} from {b.title}, answer"
        parts.append(f'{lead}: "{q.text}" (`debug-agent chat` asks it).')
    return " ".join(parts)
