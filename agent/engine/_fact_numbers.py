"""Numbers read against each other: learning-rate values, loss series, magnitudes, ratios and shapes.

Each reader takes one sentence (and the whole text for context such as the batch size) and returns
(fact id, what was read, value) triples; facts.py wraps them into Facts. What a fact means for each
cause is the catalog's `facts` tables, never code. Companion of facts.py, which reads losses and
accuracies against ln C and 1/C.

May import: nothing of ours.
"""

# ruff: noqa: E501  (regular expressions for reading numbers; one pattern per line)

from __future__ import annotations

import re
from functools import lru_cache

Read = tuple[str, str, float | None]

NUMERIC = {
    "fewer_devices_than_config": "a set-up made for more GPUs run on fewer (a smaller total batch at the same rate)",
    "tiny_capacity": "hidden layers of a handful of units (or a very narrow base width)",
    "lr_value_high": "a learning rate far above the usual range for its optimiser",
    "lr_value_tiny": "a learning rate that is effectively zero",
    "lr_value_low": "a learning rate far below the usual range (1e-6 or less)",
    "loss_jumps": "the loss multiplies from one reading to the next",
    "grad_scale_spread": "gradient magnitudes that differ by orders of magnitude between layers",
    "loss_terms_scale_differ": "loss terms whose values differ by orders of magnitude",
    "values_huge": "activations or outputs of enormous magnitude",
    "scales_with_count": "the loss or update grows with the number of accumulated (micro)batches",
    "pairwise_shape": "a tensor that should have N elements has N x N (the batch axis appears twice)",
    "shape_trailing_one": "two tensors stated as (..., 1) and (...): they broadcast to a square",
    "reshape_reorders_axes": "a reshape or view used to put axes in another order",
    "val_worsens": "validation loss rising or validation accuracy falling",
    "raw_inputs": "inputs fed in raw, unstandardised units",
    "short_training": "training ran only briefly",
    "outputs_in_sigmoid_band": "predicted probabilities confined between 0.5 and sigmoid(1) = 0.73",
}

_NUM = r"(?<![\w.])~?\s*(-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)(?![\w.]*\d)"
_LR = re.compile(r"\b(?:lr|learning[ _]rate|(?:adam\w*|sgd|rmsprop|adagrad|adafactor|lion)(?=\s+(?:at|@)\s))\b\s*(?:=|of|:|is|at|@|was|to)?\s*(?:set to |about |around |~\s*)?(\d+(?:\.\d+)?(?:e-?\d+)?)\b", re.IGNORECASE)
_ADAPTIVE = re.compile(r"\badam\w*|rmsprop|adagrad|adafactor|lion\b", re.IGNORECASE)
_SGD = re.compile(r"\bsgd\b|gradient descent", re.IGNORECASE)
_LR_WORDS = re.compile(r"\b(?:lr|learning rate|schedul\w*|decay|warm-?up|cosine|step_?lr)\b", re.IGNORECASE)


_FINETUNE = re.compile(r"fine-?tun\w*|\bpretrained\b|\b(?:bert|roberta|deberta|gpt-?2|t5|llama|vit)\b", re.IGNORECASE)


@lru_cache(maxsize=32)
def _mentions(rx: re.Pattern[str], text: str) -> bool:
    """Whether the whole text matches: asked for each sentence, answered once per text."""
    return bool(rx.search(text))


def _lr(s: str, text: str) -> list[Read]:
    out: list[Read] = []
    for m in _LR.finditer(s):
        v = float(m.group(1))
        if v <= 0:
            continue
        if v <= 1e-9:
            out.append(("lr_value_tiny", f"a learning rate of {m.group(1)}", v))
        elif v <= 1e-6:
            out.append(("lr_value_low", f"a learning rate of {m.group(1)}, far below the usual range", v))
        elif v <= 1e-5 and _mentions(_SGD, text) and not _mentions(_ADAPTIVE, text):
            out.append(("lr_value_low", f"a learning rate of {m.group(1)} with plain SGD (usually 1e-3 to 1e-1)", v))
        elif (_mentions(_ADAPTIVE, text) and v >= 0.01) or v >= 1.0:
            opt = "an adaptive optimiser (Adam-style, usually 1e-5 to 1e-3)" if _mentions(_ADAPTIVE, text) else "SGD"
            out.append(("lr_value_high", f"a learning rate of {m.group(1)} with {opt}", v))
        elif _mentions(_FINETUNE, text) and _mentions(_ADAPTIVE, text) and v >= 5e-4:
            out.append(("lr_value_high", f"a learning rate of {m.group(1)} for fine-tuning a pretrained model (usually 1e-5 to 1e-4)", v))
    if not out and _mentions(_LR_WORDS, text):
        for m in re.finditer(r"\b1e-(\d+)\b|\b10\^-(\d+)\b", s):
            if int(m.group(1) or m.group(2)) >= 12:
                out.append(("lr_value_tiny", f"a learning rate of {m.group(0)}", float("1e-" + (m.group(1) or m.group(2)))))
                break
    return out


_LOSS_WORD = re.compile(r"\b(?:loss|cross[- ]?entropy|nll|perplexity|ppl)\b", re.IGNORECASE)
_TIME = re.compile(r"\b(?:epochs?|steps?|iterations?|iters?|now|then|later|after|until|batch(?:es)?)\b|->|\u2192", re.IGNORECASE)
_SKIP_BEFORE = re.compile(r"(?:(?:epochs?|steps?|iterations?|iters?|batch(?:es)?|size|lr|rate|of|top|x|seed|gpus?|layers?|weights?|lambda\w*|coef\w*|alpha|beta|[a-z]+_[a-z_]+(?<!loss))\s*[=:#]?\s*~?|\d[-\u2013])\s*$", re.IGNORECASE)
_SKIP_AFTER = re.compile(r"^\s*(?:%|percent|epochs?|steps?|iter\w*|classes|k\b|x\b|layers|gpus?|tokens|samples|examples|images|times|decimals?)", re.IGNORECASE)
_VAL = re.compile(r"\b(?:val(?:idation)?|dev|eval(?:uation)?|test|held[- ]?out)\b", re.IGNORECASE)
_TRAIN = re.compile(r"\btrain(?:ing)?\b", re.IGNORECASE)


_INT_LIST = re.compile(r"[\[(]\s*-?\d+(?:\s*,\s*-?\d+)+\s*[\])]")
_SWEEP = re.compile(r"(?:\b[a-z]+_[a-z_]+(?<!loss)|weight|lambda|coef\w*)\s*=\s*[\d.e-]+\s*(?:,|and\b|or\b)", re.IGNORECASE)


def _series(s: str) -> list[Read]:
    """A loss read at successive times in one sentence: it multiplies (jumps) or, for validation, rises."""
    m = _LOSS_WORD.search(s)
    if not m or not _TIME.search(s):
        return []
    head = s[max(0, m.start() - 25) : m.start()]
    split = "val" if _VAL.search(head) else "train" if _TRAIN.search(head) else None
    tail = s[m.start() :]
    named = {x for x, rx in (("val", _VAL), ("train", _TRAIN)) if rx.search(tail[5:])} | ({split} if split else set())
    if len(named) == 2 or _SWEEP.search(tail):
        return []  # train and validation side by side are a comparison; "w_lat = 1, 10 and 100" a setting swept
    vals: list[float] = []
    tail = _INT_LIST.sub(" ", tail)  # "the prediction for [4,5]" names an input, not two readings
    for n in re.finditer(_NUM, tail):
        if _SKIP_BEFORE.search(tail[max(0, n.start() - 14) : n.start()]) or _SKIP_AFTER.match(tail[n.end() :]):
            continue
        vals.append(float(n.group(1)))
    vals = [v for v in vals if v >= 0]
    ends_nan = bool(re.search(r"\bnan\b|\binf\b", tail[-40:], re.IGNORECASE))
    out: list[Read] = []
    if len(vals) >= 2 and split != "val" and vals[0] > 0 and (max(vals[1:]) / vals[0] >= 5 or (ends_nan and len(vals) >= 2)):
        out.append(("loss_jumps", f"loss {vals[0]:g} -> {max(vals[1:]):g}" + (" -> nan" if ends_nan else ""), max(vals)))
    if len(vals) >= 2 and split == "val" and vals[-1] >= 1.3 * min(vals) and vals.index(min(vals)) < len(vals) - 1:
        out.append(("val_worsens", f"validation loss {min(vals):g} -> {vals[-1]:g}", vals[-1]))
    return out


_MAG = re.compile(r"~?\s*(\d+(?:\.\d+)?)?\s*(?:e|x ?10\^)([-+]?\d+)\b|\b10\^(-?\d+)\b", re.IGNORECASE)


def _magnitudes(s: str) -> list[float]:
    out = []
    for m in _MAG.finditer(s):
        exp = int(m.group(2) or m.group(3))
        out.append(float(m.group(1) or 1) * 10.0**exp)
    return out


def _grad_spread(s: str) -> list[Read]:
    if not re.search(r"\bgrad", s, re.IGNORECASE) or not re.search(r"\blayers?\b|\brest\b|\bothers?\b|\bfirst\b|\blast\b", s, re.IGNORECASE):
        return []
    mags = [v for v in _magnitudes(s) if v > 0]
    if len(mags) >= 2 and max(mags) / min(mags) >= 1e3:
        return [("grad_scale_spread", f"gradient magnitudes from {min(mags):g} to {max(mags):g}", max(mags) / min(mags))]
    return []


_TERM = re.compile(
    r"\b(?!(?:the|my|a|an|and|of|with|plus|total)\b)([a-z][\w-]*)(?: \([^)]{0,20}\))? (?:loss|ce|l1|l2|mse|term|penalty|part|component)\b(?:[^\d\n]|(?<=[A-Za-z])\d){0,45}?(?<![\w.])~?\s*(\d+(?:\.\d+)?(?:e[-+]?\d+)?)(?!\s*%)",
    re.IGNORECASE,
)
# A term named by its own noun: "the penalty starts at ~4e3", "KL 35".
_NOUN_TERM = re.compile(
    r"\b(penalty|kl|regulari[sz]\w*)\b(?:[^\d\n]|(?<=[A-Za-z])\d){0,30}?(?<![\w.])~?\s*(\d+(?:\.\d+)?(?:e[-+]?\d+)?)(?!\s*%)",
    re.IGNORECASE,
)
_NOT_TERMS = ("train", "training", "val", "validation", "test", "the", "total", "my", "and", "a", "an", "of", "with", "plus")


def _terms(s: str) -> dict[str, float]:
    if _VAL.search(s) and _TRAIN.search(s):
        return {}  # a train/val comparison, not terms of one loss
    found = {m.group(1).lower(): float(m.group(2)) for rx in (_NOUN_TERM, _TERM) for m in rx.finditer(s)}
    return {k: v for k, v in found.items() if k not in _NOT_TERMS and v > 0}


@lru_cache(maxsize=8)
def _text_terms(text: str) -> tuple[tuple[str, float], ...]:
    """Every named term of the whole text, read once per text (each sentence's reader compares against it)."""
    found: dict[str, float] = {}
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        found |= _terms(sentence)
    return tuple(found.items())


def _loss_terms(s: str, text: str) -> list[Read]:
    """Named terms of one loss 30x apart or more, in this sentence or across the text (read once, at the
    sentence that holds the largest)."""
    here = _terms(s)
    found = dict(_text_terms(text)) | here
    if not here or len(found) < 2 or max(here.values()) < max(found.values()):
        return []
    vals = list(found.values())
    if max(vals) / min(vals) >= 30:
        return [("loss_terms_scale_differ", " vs ".join(f"{k} {v:g}" for k, v in found.items()), max(vals) / min(vals))]
    return []


def _huge(s: str) -> list[Read]:
    if not re.search(r"\b(?:outputs?|activations?|logits|pre-?activations?|hidden (?:states?|units)|features?|embeddings?)\b", s, re.IGNORECASE):
        return []
    big = [v for v in _magnitudes(s) if v >= 1e6]
    return [("values_huge", f"values around {max(big):g}", max(big))] if big else []


_RANGE = re.compile(r"(?:range|ranging|ranges|from|between)\s+(?:from\s+)?~?(-?\d+(?:\.\d+)?)\s*(?:to|and|-|\u2013)\s*~?(\d+(?:\.\d+)?(?:e\+?\d+)?)(\s*(?:k|m|million|thousand))?", re.IGNORECASE)
_INPUTY = re.compile(r"\b(?:inputs?|features?|values?|magnitudes?|pixels?|columns?|raw|intensit\w*|amplitudes?|readings?|measurements?)\b", re.IGNORECASE)


def _input_range(s: str) -> list[Read]:
    if not _INPUTY.search(s) or re.search(r"\b(?:loss|lr|learning rate|epochs?|steps?|accuracy)\b.{0,20}(?:range|from|between)", s, re.IGNORECASE):
        return []
    if re.search(r"(?:value|setting)s? (?:i|we) (?:give|gave|set|try|tried|use)|(?:weight|coefficient|lambda|factor)\b.{0,30}(?:from|between)", s, re.IGNORECASE):
        return []
    for m in _RANGE.finditer(s):
        hi = float(m.group(2)) * (1000 if (m.group(3) or "").strip().lower() in ("k", "thousand") else 1e6 if m.group(3) else 1)
        if hi >= 1000:
            return [("raw_inputs", f"input values up to {hi:g}", hi)]
    return []


_ACCUM_N = re.compile(r"(?:accum\w*(?:_steps)?|micro-?batch\w*)\s*(?:=|of|over|:)?\s*(\d+)|(\d+) (?:accumulation|micro-?batch\w*) steps", re.IGNORECASE)


@lru_cache(maxsize=16)
def _numbers_in(rx: re.Pattern[str], text: str) -> frozenset[int]:
    """The numbers a two-group pattern captures anywhere in the text, read once per text (not per sentence)."""
    return frozenset(int(a or b) for a, b in rx.findall(text))


def _accum(s: str, text: str) -> list[Read]:
    ns = set(_numbers_in(_ACCUM_N, text))
    if _ACCUM_N.search(s) or re.search(r"accumulat\w*|micro-?batch", s, re.IGNORECASE):
        ns |= {int(n) for n in re.findall(r"(?:from|to|at|=|of|over|with)\s+(\d+)\b(?!\s*(?:%|epochs?|steps? (?:in|of)|updates|k\b))", s)}
    ns.discard(1)
    ns.discard(0)
    if not ns:
        return []
    for m in re.finditer(r"\b(\d+(?:\.\d+)?) ?(?:x|times)\b", s, re.IGNORECASE):
        if any(abs(float(m.group(1)) - n) <= 0.1 * n for n in ns):
            return [("scales_with_count", f"a factor of {m.group(1)} with {sorted(ns)} accumulation steps", float(m.group(1)))]
    if len(ns) >= 2 and re.search(r"\bnan\b|diverg\w*|explod\w*|worse|unstable|blows? up", s, re.IGNORECASE) and _ACCUM_N.search(s):
        return [("scales_with_count", f"fails only at the larger accumulation count ({max(ns)} vs {min(ns)})", float(max(ns)))]
    return []


_SHAPE = re.compile(r"[(\[]\s*(\d+)\s*,\s*(\d+)(?:\s*,\s*\d+)*\s*[)\]]")
_BATCH_N = re.compile(r"batch(?:[ _]size)?\s*(?:of|=|:|is)?\s*(\d+)|(\d+) (?:sequences|examples|samples|images|items|rows)\b", re.IGNORECASE)


_TUPLE = re.compile(r"[(\[]\s*(\w{1,12}(?:\s*,\s*\w{1,12}){0,3})\s*(,?)\s*[)\]]")


def _trailing_one(s: str, text: str) -> list[Read]:
    """Two shapes in one sentence where one is the other plus a trailing 1: (B, 1) against (B,), (B, T, 1) against (B, T)."""
    del text
    shapes = []
    for m in _TUPLE.finditer(s):
        dims = [d.strip().lower() for d in m.group(1).split(",")]
        if len(dims) > 1 or m.group(2) or m.group(0).startswith("["):  # a shape, not a word in parentheses
            shapes.append(tuple(dims))
    for a in shapes:
        for b in shapes:
            if len(a) == len(b) + 1 and a[-1] == "1" and a[:-1] == b:
                return [("shape_trailing_one", f"({', '.join(a)}) against ({', '.join(b)}{',' if len(b) == 1 else ''})", None)]
            if _RESHAPE.search(s) and len(a) == len(b) >= 2 and a != b and sorted(a) == sorted(b):
                return [("reshape_reorders_axes", f"({', '.join(b)}) reshaped to ({', '.join(a)})", None)]
    return []


_RESHAPE = re.compile(r"\b(?:reshap\w*|\.view|view\(|viewed)\b", re.IGNORECASE)


_GRAD = re.compile(r"\bgrad\w*", re.IGNORECASE)
_LIST = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?:\s*(?:,|->|→|then)\s*(\d+(?:\.\d+)?)){2,}")


def _grad_linear(s: str) -> list[Read]:
    """Gradient readings that grow in equal steps from about one step's worth (1, 2, 3, 4): they add up."""
    if not _GRAD.search(s):
        return []
    for m in _LIST.finditer(s):
        vals = [float(v) for v in re.findall(r"\d+(?:\.\d+)?", m.group(0))]
        steps = [b - a for a, b in zip(vals, vals[1:], strict=False)]
        if len(vals) >= 3 and steps[0] > 0 and all(abs(d - steps[0]) <= 0.3 * steps[0] for d in steps):
            if abs(vals[0] - steps[0]) <= 0.3 * steps[0]:
                return [("grads_accumulate", f"gradient readings {', '.join(f'{v:g}' for v in vals)}: one more step's worth each time", None)]
    return []


def _pairwise(s: str, text: str) -> list[Read]:
    ns = set(_numbers_in(_BATCH_N, text))
    for m in _SHAPE.finditer(s):
        dims = [int(d) for d in re.findall(r"\d+", m.group(0))]
        for a, b in zip(dims, dims[1:], strict=False):
            if a == b and a in ns and a > 1:
                return [("pairwise_shape", f"shape {m.group(0)} with the batch size {a} twice", float(a))]
    return []


_COUNT = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(k|m)?\s+(?:\w+ )?(epochs?|steps?|iterations?|iters|updates)\b", re.IGNORECASE)
# A planned total set in a config: "num_iter = 1000000", "max_epochs: 300".
_PLANNED = re.compile(r"\b(?:num|max|total|n)_?(epochs?|steps?|iterations?|iters?|updates)\s*[=:]\s*(\d[\d_,]*)(k|m)?\b", re.IGNORECASE)
_REFERENCE = re.compile(r"\b(?:paper|published|reported|reference|official|recipe|original|authors?|readme|baseline run)\b|" + _PLANNED.pattern, re.IGNORECASE)
_UNIT = {"epoch": "epoch", "step": "step", "iteration": "step", "iter": "step", "update": "step"}


def _counts(text: str) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for m in _COUNT.finditer(text):
        mult = {"k": 1e3, "m": 1e6}.get((m.group(2) or "").lower(), 1.0)
        unit = _UNIT[m.group(3).lower().rstrip("s")]
        out.setdefault(unit, []).append(float(m.group(1)) * mult)
    for m in _PLANNED.finditer(text):
        mult = {"k": 1e3, "m": 1e6}.get((m.group(3) or "").lower(), 1.0)
        unit = _UNIT[m.group(1).lower().rstrip("s")]
        out.setdefault(unit, []).append(float(re.sub(r"[_,]", "", m.group(2))) * mult)
    return out


def _fewer_than_reference(s: str, text: str) -> list[Read]:
    """A run of N epochs/steps next to a reference (paper, published curves) of 3N or more."""
    if not _COUNT.search(s) or not _mentions(_REFERENCE, text):
        return []
    for unit, values in _counts(text).items():
        lo, hi = min(values), max(values)
        if lo > 0 and hi >= 3 * lo:
            return [("short_training", f"{lo:g} {unit}s against a reference of {hi:g}", hi / lo)]
    return []


def _tiny_capacity(s: str) -> list[Read]:
    """Hidden layers of a handful of units, or a base width of 16 or less: a model too small for most tasks."""
    for m in re.finditer(r"(?<![\w.])(\d{1,2})(?:\s*(?:and|,)\s*(\d{1,2}))?\s+(?:\w+ )?(?:hidden )?(?:units|neurons)\b", s, re.IGNORECASE):
        widths = [int(g) for g in m.groups() if g]
        if max(widths) <= 8:
            return [("tiny_capacity", f"hidden layers of {' and '.join(map(str, widths))} units", max(widths))]
    if m := re.search(r"base (?:width|channels?)(?: of)?\s*(\d{1,2})\b", s, re.IGNORECASE):
        if int(m.group(1)) <= 16:
            return [("tiny_capacity", f"a base width of {m.group(1)}", int(m.group(1)))]
    return []


_GPUS = re.compile(r"\b(\d+|one|a single|single|two|four|eight|sixteen)[- ](?:gpus?|devices|cards|nodes)\b", re.IGNORECASE)
_GPU_WORDS = {"one": 1, "a single": 1, "single": 1, "two": 2, "four": 4, "eight": 8, "sixteen": 16}


def _gpu_count(m: re.Match[str]) -> int:
    g = m.group(1).lower()
    return int(g) if g.isdigit() else _GPU_WORDS[g]


@lru_cache(maxsize=8)
def _gpu_counts(text: str) -> tuple[int, ...]:
    """Every GPU count in the whole text, read once per text."""
    return tuple(_gpu_count(m) for m in _GPUS.finditer(text))


def _fewer_devices(s: str, text: str) -> list[Read]:
    """Two GPU counts in the report (one GPU here, eight in the config it came from): the sentence with fewer."""
    counts = _gpu_counts(text)
    here = [_gpu_count(m) for m in _GPUS.finditer(s)]
    if len(set(counts)) < 2 or not here or min(here) != min(counts) or max(counts) < 2 * min(counts):
        return []
    return [("fewer_devices_than_config", f"{min(counts)} GPU(s) against {max(counts)}", max(counts) / min(counts))]


_PROB_WORDS = re.compile(r"\bprob\w*|\bpredict\w*|\boutputs?\b|\bsigmoid\b|\bscores?\b", re.IGNORECASE)


def _sigmoid_band(s: str) -> list[Read]:
    """Probabilities that all land between 0.5 and 0.73: sigmoid(x) of a value in [0, 1], a probability
    passed through a second sigmoid."""
    if not _PROB_WORDS.search(s):
        return []
    if re.search(r"(?<![\w.])0?\.50?\s*(?:and|to|-|\u2013)\s*0?\.7[0-3]\d*(?![\d%])", s):
        return [("outputs_in_sigmoid_band", "predicted probabilities between 0.5 and about 0.73", 0.731)]
    return []


def sentence_facts(s: str, c: int | None, text: str) -> list[Read]:
    """Every numeric reading of one sentence (c: the number of classes the text states, if any)."""
    del c  # the class count is read by facts.py; kept in the signature for readers that need it
    out: list[Read] = []
    for reader in (_lr, _accum, _pairwise, _trailing_one, _fewer_than_reference, _fewer_devices, _loss_terms):
        out += reader(s, text)
    for single in (_series, _grad_spread, _grad_linear, _huge, _input_range, _tiny_capacity, _sigmoid_band):
        out += single(s)
    return out
