"""Read facts, not phrasings: typed facts extracted from a symptom text.

A fact is something the user reports about what they see: a loss at ln C for C classes, accuracy
above 100%, a loss of exactly 0, NaN right away or after N steps, validation loss rising while the
training loss falls, the same checkpoint scoring differently twice. Numbers are read against reference
values here; trends and relations are read with the broad word rules of `_fact_words`. Each fact keeps
the sentence it came from. What a fact means for each cause is catalog data (each entry's `facts`
table), never code.

May import: nothing of ours but `_fact_words`, `_fact_reports`, `_fact_setup`, `_fact_traced`, `_fact_numbers` and `_fact_logs`.
"""

# ruff: noqa: E501  (regular expressions for reading numbers; one pattern per line)

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from debug_agent.engine import _fact_logs as logs
from debug_agent.engine import _fact_numbers as numbers
from debug_agent.engine import _fact_text as whole_text
from debug_agent.engine._fact_reports import RULES as REPORT_RULES
from debug_agent.engine._fact_setup import EXCEPT as SETUP_EXCEPT
from debug_agent.engine._fact_setup import RULES as SETUP_RULES
from debug_agent.engine._fact_traced import RULES as TRACED_RULES
from debug_agent.engine._fact_words import EXCEPT, NEGATABLE, NEGATION, RULES, TRAIN, VAL


@dataclass(frozen=True)
class Fact:
    """One fact read from the symptom: its id, what was read, and the sentence it came from."""

    id: str
    detail: str
    phrase: str
    value: float | None = None


_SPLIT = re.compile(r"(?<=[.!?;])\s+|\n\s*\n|\n\s*[-*\u2022]\s+")
MORE_RULES = REPORT_RULES + SETUP_RULES + TRACED_RULES
_COMPILED = [(fid, desc, [re.compile(p, re.IGNORECASE) for p in pats]) for fid, desc, pats in RULES + MORE_RULES]
_NEGATION = re.compile(NEGATION, re.IGNORECASE)
_EXCEPT = {
    fid: re.compile("|".join(f"(?:{p})" for p in (EXCEPT.get(fid), SETUP_EXCEPT.get(fid)) if p), re.IGNORECASE)
    for fid in EXCEPT.keys() | SETUP_EXCEPT.keys()
}

NUMERIC = {
    "loss_at_chance": "a loss at the value of uniform guessing (ln C for C classes)",
    "loss_starts_at_chance": "an initial loss at ln C, what an untrained classifier should give",
    "acc_at_chance": "accuracy at chance level",
    "metric_impossible": "a metric value that is impossible (accuracy above 100% or above 1, or negative)",
    "loss_zero": "a loss of exactly zero",
    "loss_at_softmax_floor": "a loss stuck at ln(1 + (C-1)/e), the floor of cross-entropy fed probabilities",
    "loss_negative": "a negative loss where the loss cannot be negative",
    "loss_near_zero": "a loss that falls to almost zero",
    "val_near_perfect": "validation accuracy at or near 100%",
    "nonfinite": "NaN or Inf values",
    "nonfinite_immediate": "NaN or Inf from the first step",
    "nonfinite_later": "NaN or Inf only after some steps",
    "train_fits_val_chance": "training fits while validation stays at chance",
    "train_improves_val_worsens": "validation getting worse while training keeps improving",
    "val_ahead_explained": "validation ahead of training while only training runs dropout or augmentation",
    "nothing_observed": "a check is asked for and nothing is observed: no failure, gap or trend described",
}
KNOWN: dict[str, str] = (
    numbers.NUMERIC | {fid: desc for fid, desc, _ in RULES + MORE_RULES} | NUMERIC | whole_text.DESCRIBED
)


def sentences(text: str) -> list[str]:
    flat = text.replace("\u2019", "'").replace("\u2212", "-").replace("\u2248", "~")
    return [" ".join(s.split()) for s in _SPLIT.split(flat) if s.strip()]


# ---------------------------------------------------------------- number of classes
_NAMED_C = [
    (r"cifar-?100\b", 100), (r"cifar-?10\b|\bmnist\b|fashion-?mnist|\bsvhn\b", 10), (r"imagenet(?!-?\d)", 1000),
    (r"\bbinary\b|two classes|2 classes|yes/no|positive (?:or|vs\.?|and) negative", 2),
]
_WORD_N = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
_C_RE = re.compile(
    r"\b(\d{1,6}|two|three|four|five|six|seven|eight|nine|ten)[- ](?:way|class(?:es)?|categor(?:y|ies)|labels|outputs|digits)\b",
    re.IGNORECASE,
)
_VOCAB_RE = re.compile(r"vocab(?:ulary)?(?: size)?(?: of| is| =|:)?\s*(\d[\d,]{2,})", re.IGNORECASE)


def classes(text: str) -> int | None:
    """The number of classes the text states or names (a dataset, 'binary', 'a vocabulary of 50,000')."""
    if m := _C_RE.search(text):
        n = m.group(1).lower()
        c = _WORD_N.get(n) or int(n)
        if c >= 2:
            return c
    if m := _VOCAB_RE.search(text):
        return int(m.group(1).replace(",", ""))
    for pat, c in _NAMED_C:
        if re.search(pat, text, re.IGNORECASE):
            return c
    return None


# ---------------------------------------------------------------- numbers next to loss / metric words
_NUM = r"(-?\d+(?:\.\d+)?(?:e-?\d+)?)"
_LOSS_NUM = re.compile(
    r"\b(loss|cost|cross[- ]?entropy|\bce\b|nll|perplexity|ppl)\b(?:(?!\b(?:acc\w*|lr|learning rate|epochs?|steps?|iterations?|batch)\b)(?:[^\d-]|(?<=[a-z])-(?=[a-z]))){0,40}?"
    + _NUM + r"(?!\s*(?:%|epochs?|steps?|iter|classes|k\b))",
    re.IGNORECASE,
)
_ACC_NUM = re.compile(
    r"\b(acc(?:uracy)?|f1|auc|precision|recall|top-?1|r2|r²|r\^2)(?!\w)(?:(?!\b(?:loss|lr|bs|batch)\b|\b(?:epochs?|steps?|iterations?)\s*\d)(?:[^\d-]|(?<=[a-z])-(?=[a-z]))){0,40}?"
    + _NUM + r"\s*(%|percent)?",
    re.IGNORECASE,
)
_PCT_ACC = re.compile(r"(?<![\w.])(-?\d+(?:\.\d+)?)\s*(%|percent)\s*(?:\w+\s){0,2}?(?:acc(?:uracy)?)\b", re.IGNORECASE)
_COMMON_C = (2, 3, 4, 5, 10, 100, 1000)


def _split_of(sentence: str, pos: int) -> str | None:
    """train / val: the split word nearest before a position in the sentence."""
    head = sentence[max(0, pos - 60) : pos]
    last = None
    for m in re.finditer(TRAIN + "|" + VAL, head, re.IGNORECASE):
        last = "train" if m.group(0).lower().startswith("train") else "val"
    return last


_SPLIT_AFTER = re.compile(
    r"\s*(?:%|percent)?\s*(?:(?:\w+\s)?(?:on|for|in) (?:the |my |our )?)?(?:(train)\w*|val\w*|test\w*|dev\b|held[- ]?out)",
    re.IGNORECASE,
)


def _split_after(sentence: str, pos: int, number: str) -> str | None:
    """train / val named right after a number ("45% on the training data"), when none comes before it."""
    i = sentence.find(number, pos)
    m = _SPLIT_AFTER.match(sentence, i + len(number)) if i >= 0 else None
    return None if m is None else "train" if m.group(1) else "val"


def _chance_loss(v: float, c: int | None) -> str | None:
    if v <= 0:
        return None
    if c:
        ref = math.log(c)
        return f"{v:g} ~ ln {c} = {ref:.3f} for {c} classes" if abs(v - ref) <= 0.04 * ref + 0.01 else None
    for cc in _COMMON_C:
        ref = math.log(cc)
        if abs(v - ref) <= 0.012 * ref:
            return f"{v:g} ~ ln {cc} = {ref:.3f} (uniform guessing over {cc} classes)"
    return None


_FLOOR_WORDS = re.compile(r"floor|won't go (?:any )?(?:lower|below)|(?:never|doesn't|does not|can't|cannot) (?:go|get|fall|drop) (?:any )?(?:lower|below|under)|bottom\w* out|minimum", re.IGNORECASE)


def _softmax_floor(v: float, c: int | None, s: str) -> str | None:
    """A loss stuck at ln(1 + (C-1)/e): cross-entropy over probabilities, the floor when softmax is applied twice."""
    cands = [c] if c else (list(_COMMON_C) if _FLOOR_WORDS.search(s) else [])
    for cc in cands:
        ref = math.log(1 + (cc - 1) / math.e)
        if abs(v - ref) <= 0.02 * ref + 0.005:
            return f"{v:g} ~ ln(1 + {cc - 1}/e) = {ref:.3f}, the lowest cross-entropy reachable from probabilities instead of logits ({cc} classes)"
    return None


_START = re.compile(r"\b(?:starts?|starting|initial\w*|at init\w*|before (?:any )?training|first (?:step|batch|iteration))\b", re.IGNORECASE)
_STUCK = re.compile(r"\b(?:stays?|stuck|remains?|whole run|never|does(?:n't| not) (?:move|change|go down)|plateau\w*|entire|throughout)\b", re.IGNORECASE)


def _loss_facts(s: str, c: int | None, out: list[Fact], by_split: dict[str, list[float]]) -> None:
    for m in _LOSS_NUM.finditer(s):
        word, raw = m.group(1).lower(), m.group(2)
        try:
            v = float(raw)
        except ValueError:
            continue
        split = _split_of(s, m.start(2)) or _split_after(s, m.start(2), raw)
        if word not in ("perplexity", "ppl") and split:
            by_split.setdefault(f"{split}_loss", []).append(v)  # the split named nearest before the number
        if word in ("perplexity", "ppl"):
            if 0 < v < 1.5:
                out.append(Fact("loss_near_zero", f"perplexity {raw}, i.e. a loss near 0", s, v))
            elif c and abs(v - c) <= 0.1 * c:
                out.append(Fact("loss_at_chance", f"perplexity {raw} ~ {c}, uniform over {c} classes", s, v))
            continue
        if v < 0:
            out.append(Fact("loss_negative", f"a loss of {raw}", s, v))
        elif v == 0 and re.fullmatch(r"0(?:\.0+)?", raw) and re.search(r"(?:near|close to|almost|about|around|~|approximately|nearly|approaching|to)\s*$", s[: m.start(2)], re.IGNORECASE):
            out.append(Fact("loss_near_zero", f"a loss near {raw}", s, v))
        elif v == 0 and re.fullmatch(r"0(?:\.0+)?", raw):
            out.append(Fact("loss_zero", f"a loss of {raw}", s, v))
        elif 0 < v < 0.02 and _split_of(s, m.start()) != "val":
            out.append(Fact("loss_near_zero", f"a loss of {raw}", s, v))
        elif why := _chance_loss(v, c):
            # At the start, ln C is what an untrained classifier should give; only later is it a failure.
            start = _START.search(s) and not _STUCK.search(s)
            out.append(Fact("loss_starts_at_chance" if start else "loss_at_chance", why, s, v))
        elif why := _softmax_floor(v, c, s):
            out.append(Fact("loss_at_softmax_floor", why, s, v))


def _acc_values(s: str) -> list[tuple[int, float, bool, str]]:
    """(position, value in percent or fraction, given as percent?, raw text) for accuracy-like numbers."""
    found: dict[int, tuple[int, float, bool, str]] = {}
    for m in _ACC_NUM.finditer(s):
        if m.group(1).lower().startswith("r") and float(m.group(2)) < 0:
            continue  # a negative R² is possible (worse than predicting the mean)
        if _POINTS.match(s, m.end()):
            continue  # "1.5 points under the paper": a difference, not a score
        # The split is the one named nearest before the number ("training accuracy 95 but validation at 76").
        found[m.start(2)] = (m.start(2), float(m.group(2)), bool(m.group(3)), m.group(2) + (m.group(3) or ""))
    for m in _PCT_ACC.finditer(s):
        found.setdefault(m.start(1), (m.start(), float(m.group(1)), True, m.group(1) + "%"))
    if found:  # the sentence is about accuracy: a bare percentage after a split word is that split's
        for m in _BARE_PCT.finditer(s):
            share = _SHARE_AFTER.match(s, m.end()) or _SHARE_BEFORE.search(s[max(0, m.start() - 30) : m.start()])
            if m.start(1) not in found and not share and _split_of(s, m.start()):
                found[m.start(1)] = (m.start(), float(m.group(1)), True, m.group(1) + "%")
    return list(found.values())


_POINTS = re.compile(r"\s*(?:points?|pts|pp|percentage points?)\b", re.IGNORECASE)
_BARE_PCT = re.compile(r"(?<![\w.])(\d{1,3}(?:\.\d+)?)\s*%")
# A percentage of the data, a dropout rate or a split size is not a score.
_SHARE_AFTER = re.compile(r"\s*(?:of\b|for\b|split|train|val|test|hold|data|dropout|masked|missing|\w*\s*(?:acc|loss))", re.I)
_SHARE_BEFORE = re.compile(r"(?:dropout|drop|lr|split|use[sd]?|using|tak\w*|hold\w*|mask\w*|sampl\w*|by|to)\s*(?:of\s*)?(?:about |around |~)?$", re.I)


_OVER_100 = re.compile(r"(?<![\w.])(\d{3,}(?:\.\d+)?)\s*(?:%|percent)", re.IGNORECASE)
_ACC_WORD = re.compile(r"\bacc(?:uracy|urate)?\b|\bprecision\b|\brecall\b|\bf1\b", re.IGNORECASE)
_GROWTH = re.compile(r"(?:\bby|increas\w*|grow\w*|grew|rais\w*|faster|slower|more|up to|speed\w*|of the)\s*(?:about |around |~)?$", re.IGNORECASE)


def _percent_over_100(s: str) -> Fact | None:
    """A share above 100% in a sentence about accuracy ('reported at 150%'), not a growth ('up by 150%')."""
    if not _ACC_WORD.search(s):
        return None
    for m in _OVER_100.finditer(s):
        if float(m.group(1)) > 100 and not _GROWTH.search(s[max(0, m.start() - 20) : m.start()]):
            return Fact("metric_impossible", f"a metric of {m.group(0)}", s, float(m.group(1)))
    return None


def _acc_facts(s: str, c: int | None, out: list[Fact], by_split: dict[str, list[float]]) -> None:
    if over := _percent_over_100(s):
        out.append(over)
    for pos, v, pct, raw in _acc_values(s):
        if v < 0 or (pct and v > 100) or (not pct and "." in raw and 1 < v < 10) or (not pct and v > 100):
            out.append(Fact("metric_impossible", f"a metric of {raw}", s, v))
            continue
        p = v if pct or v > 1 else v * 100
        split = _split_of(s, pos) or _split_after(s, pos, raw.rstrip("%"))
        if split:
            by_split.setdefault(split, []).append(p)
        if c and abs(p - 100 / c) <= max(3.0, 0.15 * 100 / c):
            out.append(Fact("acc_at_chance", f"{raw} ~ 1/{c}, chance for {c} classes", s, p))
        if split == "val" and p >= 98:
            out.append(Fact("val_near_perfect", f"validation {raw}", s, p))


_NAN = re.compile(r"\b(nan|inf|infinity|infinite|-inf)s?\b", re.IGNORECASE)
_NOW = re.compile(
    r"immediately|right away|(?:the )?(?:very )?first (?:step|batch|iteration|forward|update|epoch)|step 0\b|"
    r"from the (?:start|beginning|outset|first)|at (?:the )?start|straight away|(?:at|on) initiali[sz]ation|after (?:one|1|a single) (?:step|iteration|batch)|"
    r"(?:second|third|fourth|fifth|2nd|3rd|4th|5th) (?:step|iteration|batch|update)|(?:at|from|on) (?:step|iteration) [1-9]\b",
    re.IGNORECASE,
)
_LATER = re.compile(
    r"after (?:only |just )?(?:about |around |roughly |some |a few |several |many |~)?(\d[\d,.]*k?|a few|some|several|many|a while|hundreds|thousands|dozens|a couple)"
    r"(?: of)?(?: \w+)? (?:steps|iterations|iters|epochs|batches|updates|minutes|hours)|eventually|after a while|later on|gradually|mid-?training|"
    r"(?:at|from) (?:epoch (?:[2-9]|\d{2,})|(?:step|iteration) \d{2,})|(?:step|iteration|epoch) \d{2,}|for a while|"
    r"\bthen\s+(?:to\s+|becomes?\s+|goes\s+to\s+)?(?:nan|inf)\b|after that|afterwards|thereafter|"
    r"(?:few |several |couple of )?(?:hundred|thousand)s? (?:of )?(?:steps|iterations|iters|epochs|batches|updates)|"
    r"(?:second|third|fourth|fifth|2nd|3rd|4th|5th) (?:epoch|round)s?|(?:next|later|subsequent) (?:step|iteration|epoch|batch|round)s?",
    re.IGNORECASE,
)


def _nonfinite_facts(s: str, out: list[Fact]) -> None:
    m = next((m for m in _NAN.finditer(s) if not _NEGATION.search(s[max(0, m.start() - 30) : m.start()])), None)
    if not m:
        return
    out.append(Fact("nonfinite", f"'{m.group(0)}' values", s))
    # When both a start ("the first epoch runs fine") and a later point ("in the second epoch") are named,
    # the one nearer the NaN says when it appeared.
    now = [abs(n.start() - m.start()) for n in _NOW.finditer(s)]
    later = [abs(n.start() - m.start()) for n in _LATER.finditer(s)]
    if now and (not later or min(now) < min(later)):
        out.append(Fact("nonfinite_immediate", "non-finite from the first step", s))
    elif later:
        out.append(Fact("nonfinite_later", "non-finite only after some steps", s))


def _word_facts(s: str, out: list[Fact]) -> None:
    for fid, desc, pats in _COMPILED:
        if fid in _EXCEPT and _EXCEPT[fid].search(s):
            continue
        for p in pats:
            if any(not (fid in NEGATABLE and _NEGATION.search(s[max(0, m.start() - 30) : m.start()])) for m in p.finditer(s)):
                out.append(Fact(fid, desc, s))
                break


def _derived(facts: list[Fact], by_split: dict[str, list[float]], c: int | None) -> list[Fact]:
    """Facts that follow from two others (train vs validation numbers, both trends reported)."""
    ids = {f.id: f for f in facts}
    out: list[Fact] = []
    if "train_regularized_only" in ids and "val_better_than_train" in ids:
        # Validation ahead of training while only training runs dropout or augmentation: expected, not a bug.
        out.append(Fact("val_ahead_explained", NUMERIC["val_ahead_explained"], ids["train_regularized_only"].phrase))
    if "train_improves" in ids and "val_worsens" in ids:
        out.append(Fact("train_improves_val_worsens", KNOWN["train_improves_val_worsens"], ids["val_worsens"].phrase))
    if "metric_reads_zero" in ids and "outputs_match_truth" in ids:
        # A metric of zero over predictions the user sees matching the ground truth: the metric is what is wrong.
        out.append(Fact("metric_contradicts_outputs", KNOWN["metric_contradicts_outputs"], ids["metric_reads_zero"].phrase))
    tr, va = by_split.get("train", []), by_split.get("val", [])
    if tr and va:
        gap = max(tr) - min(va)
        phrase = f"training {max(tr):g}% vs validation {min(va):g}%"
        # far apart: 15 points, or the held-out error several times the training error (99.1% vs 89.5% is;
        # 92% vs 84% is not), since a near-perfect training fit makes a smaller gap telling
        if gap >= 15 or (gap >= 5 and 100 - min(va) >= 3 * (100 - max(tr))):
            out.append(Fact("generalization_gap", KNOWN["generalization_gap"], phrase, gap))
        if min(va) > max(tr) + 1:
            out.append(Fact("val_better_than_train", KNOWN["val_better_than_train"], phrase))
        chance = 100 / c if c else None
        if max(tr) >= 90 and (("acc_at_chance" in ids) or (chance and abs(min(va) - chance) <= max(3.0, 0.15 * chance))):
            out.append(Fact("train_fits_val_chance", KNOWN["train_fits_val_chance"], phrase))
    elif "acc_at_chance" in ids and "train_improves" in ids:
        out.append(Fact("train_fits_val_chance", KNOWN["train_fits_val_chance"], ids["acc_at_chance"].phrase))
    tl, vl = [v for v in by_split.get("train_loss", []) if v > 0], by_split.get("val_loss", [])
    if tl and vl and max(vl) >= 10 * min(tl) and max(vl) - min(tl) >= 0.05 and "generalization_gap" not in ids:
        # A validation loss ten times the training loss: the loss-side twin of a train/val accuracy gap.
        phrase = f"training loss {min(tl):g} vs validation loss {max(vl):g}"
        out.append(Fact("generalization_gap", KNOWN["generalization_gap"], phrase, max(vl) / min(tl)))
    if tr and max(tr) < 70 and "train_poor" not in ids:
        out.append(Fact("train_poor", KNOWN["train_poor"], f"training accuracy {max(tr):g}%"))
    return out


_CHANCE_WORDS = re.compile(r"\bchance\b|coin[- ]?flip|random guess\w*|(?:no better|barely better|not better) than (?:random|guessing|chance)", re.IGNORECASE)


_IMAGES = re.compile(r"\b(?:images?|pictures?|photos?|pixels?|faces?|diffusion|ddpm|gan|inpaint\w*|segmentation)\b", re.IGNORECASE)
_TEXTS = re.compile(r"\b(?:text|tokens?|sentences?|words?|language|gpt|llm|captions?|translat\w*|vocab\w*|characters?|perplexity)\b", re.IGNORECASE)


def _nothing_observed(facts: list[Fact], text: str) -> list[Fact]:
    """A check asked for with nothing observed at all: no number, and no fact beyond mentions of parts."""
    ids = {f.id: f for f in facts}
    if "healthy_request" not in ids or re.search(r"\d", text):
        return []
    if all(f == "healthy_request" or f.endswith("_mentioned") or f.startswith("mentions_") for f in ids):
        return [Fact("nothing_observed", NUMERIC["nothing_observed"], ids["healthy_request"].phrase)]
    return []


def extract(text: str) -> list[Fact]:
    """Every fact the symptom text states, one per id (the first sentence that shows it), in text order."""
    c = classes(text)
    raw: list[Fact] = []
    by_split: dict[str, list[float]] = {}
    for s in sentences(text):
        logged, plain = logs.log_values(s)  # a Keras-style log line: numbers per split, then blanked
        for key, values in logged.items():
            by_split.setdefault(key, []).extend(values)
        _loss_facts(plain, c, raw, by_split)
        _acc_facts(s, c, raw, by_split)
        _nonfinite_facts(s, raw)
        if _CHANCE_WORDS.search(s):
            raw.append(Fact("acc_at_chance", "performance at chance level", s))
        words: list[Fact] = []
        _word_facts(plain, words)
        raw += [Fact(f.id, f.detail, s, f.value) for f in words]
        raw += [Fact(fid, detail, s, v) for fid, detail, v in numbers.sentence_facts(plain, c, text)]
    raw += _derived(raw, by_split, c) + [Fact(fid, KNOWN[fid], phrase) for fid, phrase in whole_text.read(text)]
    raw += _nothing_observed(raw, text)
    if _IMAGES.search(text) and not _TEXTS.search(text):  # "generated samples" of an image model are not text
        raw = [f for f in raw if f.id != "generation_bad"]
    if any(f.id == "user_says_underfits" for f in raw):  # bad samples from a model that never fit: no low loss
        raw = [f for f in raw if f.id != "generation_bad"]
    if max(by_split.get("train", [0])) >= 90:  # "training accuracy plateaus at 97%": a plateau, not a poor fit
        raw = [f for f in raw if f.id != "train_poor"]
    seen: set[str] = set()
    out = []
    for f in raw:
        if f.id not in seen:
            seen.add(f.id)
            out.append(f)
    return out
