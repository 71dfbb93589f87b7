"""Lexical similarity between a symptom's words and each catalog entry's own text (BM25, pure Python).

For wordings no phrase pattern or fact rule knows: the symptom and every entry's text (title,
`reads_like`, explanation, the words of its symptom patterns and the descriptions of the facts it
weighs positively) are cut into words, lightly stemmed and folded through a small map of ML synonyms;
BM25 scores each entry against the symptom. An entry whose score lies above the catalog's mean earns
`similarity_weight` log-odds per standard deviation, at most `similarity_cap`, and the term cites which
symptom words matched which words of the entry's text. It is word evidence only, never probe evidence.

May import: schemas and the engine's `facts` (fact descriptions). Stdlib otherwise.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from debug_agent.engine.facts import KNOWN as FACT_TEXT
from debug_agent.schemas import Catalog, CatalogEntry

K1, B = 1.2, 0.75
FIELDS = (("title", 2), ("reads_like", 2), ("explanation", 1), ("patterns", 1), ("facts", 1))

# Multi-word names folded to one word before splitting.
_PHRASES = [
    (r"learning[ -]rates?", "lr"),
    (r"batch[ -]?norm\w*", "batchnorm"),
    (r"zero_grad\w*|zero[ -]grad\w*", "zerograd"),
    (r"requires_grad\w*", "requiresgrad"),
    (r"no_grad|no[ -]grad\b", "nograd"),
    (r"ground[ -]truth", "label"),
    (r"not a number|\bnans?\b|\binfs?\b|\binfinit\w*|non-?finite", "nan"),
    (r"blow(s|ing|n)? up|blew up", "explode"),
    (r"held[ -]out|hold[ -]out", "validation"),
    (r"ignore_index|ignore index", "ignoreindex"),
    (r"\bsqrt\b|square root", "sqrt"),
]
_PHRASE_RE = [(re.compile(p, re.IGNORECASE), w) for p, w in _PHRASES]
_WORD = re.compile(r"[a-z][a-z0-9]*")
_STOP = frozenset(
    """a an the and or but if then than that this these those it its is are was were be been being am
    of to in on at by for with from as into onto over under about after before between through during
    i me my we our you your he she they them their what which who whom when where why how all any
    both each few more most other some such no nor not only own so too very can will just do does did
    doing have has had having would should could may might must also there here out up down off again
    further once while until get got gets getting use used using one two three like even still now
    see seen seems seem look looks looked something anything thing things way much many well really
    i'm it's don't doesn't isn't bit lot quite pretty keep keeps kept go goes going went make makes made
    happen happens happened try tried time times every always never sometimes""".split()
)
_SUFFIXES = (
    ("isation", "iz"), ("ization", "iz"), ("ations", "ate"), ("ation", "ate"), ("ising", "iz"),
    ("izing", "iz"), ("ised", "iz"), ("ized", "iz"), ("ises", "iz"), ("izes", "iz"), ("ise", "iz"),
    ("ize", "iz"), ("ingly", ""), ("edly", ""), ("ness", ""), ("ments", ""), ("ment", ""), ("ing", ""),
    ("ies", "y"), ("ied", "y"), ("ed", ""), ("es", ""), ("ly", ""), ("s", ""),
)  # fmt: skip
_IRREGULAR = {"blew": "blow", "rose": "rise", "fell": "fall", "grew": "grow", "frozen": "freeze", "froze": "freeze"}
# Words that mean the same thing in bug reports; each group folds to its first word's stem.
_SYNONYMS = [
    "nan nonfinite",
    "explode diverge skyrocket blow",
    "plateau stuck stall flat flatline stagnate",
    "decrease drop fall decline shrink",
    "increase rise grow climb",
    "random nondeterministic stochastic fluctuate inconsistent noisy nondeterminism",
    "oscillate bounce zigzag erratic jumpy swing",
    "validation val valid heldout",
    "eval evaluation inference",
    "gradient grad grads",
    "parameter param params weight",
    "label target annotation",
    "prediction predict output pred",
    "accuracy acc",
    "freeze frozen",
    "initialization init initialise initialize",
    "attention attn",
    "scheduler schedule sched",
    "accumulation accumulate accum",
    "padding pad padded",
    "dimension dim axis axes",
    "step iteration iter",
    "duplicate overlap contamination leak leakage",
    "batchnorm bn",
    "recurrent rnn lstm gru",
    "transformer gpt llm decoder",
    "image pixel picture photo",
    "token word",
    "sequence sentence seq",
    "overfit memorize memorise",
    "chance guess uniform",
    "huge large big massive enormous",
    "tiny small minuscule",
    "same identical",
    "slow slowly sluggish",
]


def _stem(word: str) -> str:
    w = _IRREGULAR.get(word, word)
    for suffix, repl in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            if suffix == "s" and w.endswith(("ss", "us", "is")):
                break
            w = w[: len(w) - len(suffix)] + repl
            break
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz":
        w = w[:-1]
    return w


def _synonym_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for group in _SYNONYMS:
        words = group.split()
        head = _stem(words[0])
        for w in words:
            table[_stem(w)] = head
    return table


_SYN = _synonym_table()


def _term(word: str) -> str:
    stem = _stem(word)
    return _SYN.get(stem, stem)


def words(text: str) -> list[tuple[str, str]]:
    """(term, surface word) pairs: lower-cased, stop words dropped, stemmed, synonyms folded."""
    flat = text.lower().replace("\u2019", "'")
    said: list[tuple[str, str]] = []  # (folded word, what the text said) for each multi-word name

    def mark(word: str) -> Callable[[re.Match[str]], str]:
        def sub(m: re.Match[str]) -> str:
            said.append((word, " ".join(m.group().split())))
            return f" zzphrase{len(said) - 1}zz "

        return sub

    for pattern, word in _PHRASE_RE:
        flat = pattern.sub(mark(word), flat)
    out = []
    for m in _WORD.finditer(flat.replace("_", " ")):
        w = m.group()
        if w.startswith("zzphrase"):
            word, surface = said[int(w[8:-2])]
            out.append((_term(word), surface))
        elif w not in _STOP and len(w) > 1:
            out.append((_term(w), w))
    return out


def _pattern_words(pattern: str) -> str:
    """The literal words of a regular expression (escapes such as \\w and \\b removed)."""
    return " ".join(re.findall(r"[a-z]{3,}", re.sub(r"\\[a-zA-Z]", " ", pattern.lower())))


def _fields(e: CatalogEntry) -> dict[str, str]:
    return {
        "title": e.title,
        "reads_like": e.reads_like,
        "explanation": e.explanation,
        "patterns": " ".join(_pattern_words(s.pattern) for s in e.symptoms),
        "facts": " ".join(FACT_TEXT.get(f, "") for f, w in e.facts.items() if w > 0),
    }


@dataclass(frozen=True)
class _Doc:
    tf: Counter[str]
    length: int
    surface: dict[str, dict[str, str]]  # term -> {a word of the entry's text: the field it first came from}


@dataclass(frozen=True)
class _Index:
    ids: tuple[str, ...]
    docs: tuple[_Doc, ...]
    idf: dict[str, float]
    avg_len: float


def _doc(e: CatalogEntry) -> _Doc:
    tf: Counter[str] = Counter()
    surface: dict[str, dict[str, str]] = {}
    for name, repeat in FIELDS:
        for term, word in words(_fields(e)[name]):
            tf[term] += repeat
            surface.setdefault(term, {}).setdefault(word, name)
    return _Doc(tf, sum(tf.values()), surface)


_CACHE: dict[int, tuple[Catalog, _Index]] = {}


def _index(catalog: Catalog) -> _Index:
    """The catalog's BM25 index, built once per catalog object."""
    hit = _CACHE.get(id(catalog))
    if hit is not None and hit[0] is catalog:
        return hit[1]
    _CACHE.clear()
    _CACHE[id(catalog)] = (catalog, index := _build(catalog))
    return index


def _build(catalog: Catalog) -> _Index:
    docs = tuple(_doc(e) for e in catalog.entries)
    n = len(docs)
    df = Counter(t for d in docs for t in d.tf)
    idf = {t: math.log(1 + (n - k + 0.5) / (k + 0.5)) for t, k in df.items()}
    avg = statistics.fmean(d.length for d in docs) if docs else 1.0
    return _Index(tuple(e.id for e in catalog.entries), docs, idf, avg)


@dataclass(frozen=True)
class Match:
    """One entry's similarity term: its log-odds and the word pairs that earned it, strongest first."""

    cause_id: str
    weight: float
    pairs: tuple[tuple[str, str, str], ...]  # (symptom word, entry word, entry field)


def _bm25(index: _Index, doc: _Doc, query: dict[str, str]) -> tuple[float, list[tuple[float, str]]]:
    parts = []
    for term in query:
        f = doc.tf.get(term, 0)
        if f:
            norm = f * (K1 + 1) / (f + K1 * (1 - B + B * doc.length / index.avg_len))
            parts.append((index.idf[term] * norm, term))
    return sum(p for p, _ in parts), sorted(parts, reverse=True)


def _pair(said: str, seen: dict[str, str]) -> tuple[str, str, str]:
    """(symptom word, entry word, field): the entry's own spelling of the word when it has one."""
    word = said if said in seen else next(iter(seen))
    return said, word, seen[word]


def similar(text: str, catalog: Catalog) -> list[Match]:
    """Entries whose text the symptom reads like, with bounded log-odds (empty when the weight is 0)."""
    weight, cap = catalog.similarity_weight, catalog.similarity_cap
    query: dict[str, str] = {}
    for term, word in words(text):
        query.setdefault(term, word)
    if not weight or not cap or not query:
        return []
    index = _index(catalog)
    scored = [_bm25(index, d, query) for d in index.docs]
    scores = [s for s, _ in scored]
    spread = statistics.pstdev(scores)
    if spread <= 0:
        return []
    mean = statistics.fmean(scores)
    out = []
    for cid, doc, (score, parts) in zip(index.ids, index.docs, scored, strict=True):
        w = min(cap, weight * (score - mean) / spread)
        if w > 0:
            pairs = tuple(_pair(query[t], doc.surface[t]) for _, t in parts[:4])
            out.append(Match(cid, round(w, 3), pairs))
    return out


def describe(m: Match) -> str:
    """The observation text: which symptom words matched which words of the entry's text."""
    shown = ", ".join(f'"{s}"' + ("" if s == e else f' ~ "{e}"') + f" ({where})" for s, e, where in m.pairs)
    return f"the symptom's words resemble this cause's catalog text: {shown}"
