"""Readers of the whole symptom text, for facts whose evidence spans sentences.

The sentence readers of facts.py see one sentence at a time, and the splitter cuts at `;` too, so a quoted
training loop (`loss.backward(); opt.step()`) or a stated tensor layout in one sentence and the softmax
over it in the next are out of their reach. Each reader here returns (fact id, phrase) pairs; facts.py
describes them.

May import: nothing of ours.
"""

from __future__ import annotations

import re

DESCRIBED = {
    "loop_without_zero_grad": "the training loop the user quotes has no zero_grad()",
    "softmax_over_spatial_axis": "a softmax over the last axis of (B, C, H, W) logits: over the width, not the classes",
    "batched_text_differs": "a text model's prediction for an example changes with the batch it is in",
    "linear_fit_nonlinear": "a single linear layer fitted to a target with a product, power or periodic term, or to "
    "classes no straight line separates",
    "norm_absent": "the network has no normalisation layers (no batch norm or layer norm)",
    "preprocessing_edited": "the preprocessing or tokenisation was edited, yet some results stayed as before",
}

_BACKWARD_THEN_STEP = re.compile(r"backward\(\w*\)\s*[;\n]\s*\w+(?:\.\w+|\(\))*\.step\(\)")  # code: `;` or a new line
_CLEARS = re.compile(r"zero_grad|\.grad\s*=\s*None|grad\.zero_|set_to_none", re.IGNORECASE)
_NCHW = re.compile(r"\(\s*(?:b|n|bs|batch)\s*,\s*(?:c|\d+|classes|num_classes)\s*,\s*h\s*,\s*w\s*\)", re.IGNORECASE)
_LAST_AXIS_SOFTMAX = re.compile(r"(?:log_)?softmax\w*\((?:[\w.]+\s*,\s*)?(?:dim\s*=\s*)?-1\)", re.IGNORECASE)
_PREDICTION = re.compile(r"\b(?:prediction|output|result|probabilit|logit|embedding)\w*", re.IGNORECASE)
_IN_A_BATCH = re.compile(r"\bbatch(?:ed|es)?\b|one[- ]by[- ]one|\balone\b|other (?:sentences|texts|examples)", re.I)
_CHANGES = re.compile(r"\b(?:different|chang\w*|differs?|depends?|depending)\b", re.IGNORECASE)
_TEXT_MODEL = re.compile(r"\b(?:sentences?|bert|transformer|tokens?|text|nlp|tokeni[sz]\w*|input_ids)\b", re.I)
_ONE_LINEAR = re.compile(
    r"nn\.linear\(\s*\d+\s*,\s*\d+\s*\)|\blinear (?:regression|model)\b|\blogistic regression\b", re.I
)
_HIDDEN = re.compile(r"\bhidden\b|\brelu\b|\btanh\b|\bmlp\b|\blayers\b|sequential\(|\bpolynomial features\b", re.I)
_NONLINEAR = re.compile(
    r"\binteraction\b|\bx\d ?\*? ?x\d\b|\bx\^?2\b|\bx\*\*2\b|\bquadratic\b|\bsin\(|\bxor\b"
    r"|\b(?:two[- ])?(?:semi-?circles?|moons|spirals?|concentric circles)\b",  # classes no straight line separates
    re.I,
)
_BATCHNORM = re.compile(r"batch ?norm|\bbn\b", re.IGNORECASE)
_NO_BATCHNORM = re.compile(r"\bno (?:batch ?norm|bn)\b|without (?:batch ?norm|bn)\b", re.IGNORECASE)
_NO_NORM_LAYERS = re.compile(
    r"\b(?:has no|with no|without(?: any)?|no) (?:batch ?norm\w*|bn|layer ?norm\w*|normali[sz]ation layers?)\b", re.I
)
_PIPELINE_EDIT = re.compile(
    r"\b(?:added|introduced|inserted|changed|modified|rewrote|updated|switched|edited|tweaked)\b.{0,60}"
    r"\b(?:preprocess\w*|pipeline|tokeni[sz]\w*|feature extraction)",
    re.IGNORECASE | re.DOTALL,  # a wrapped line may split the sentence
)
_AS_BEFORE = re.compile(r"\b(?:like|as)\s+before\b|\b(?:the )?same\b|\bidentical\b|\bunchanged\b|no effect", re.I)


def read(text: str) -> list[tuple[str, str]]:
    """Every whole-text fact of the symptom, as (fact id, the phrase that shows it)."""
    out: list[tuple[str, str]] = []
    loop = _BACKWARD_THEN_STEP.search(text)
    if loop and not _CLEARS.search(text):
        out.append(("loop_without_zero_grad", loop.group(0)))
    if no_norm := _NO_NORM_LAYERS.search(text):  # nothing rescales the signal between layers
        out.append(("norm_absent", no_norm.group(0)))
    # An edit to the pipeline that left results as they were: what trains may not be what the code now makes.
    if (edit := _PIPELINE_EDIT.search(text)) and _AS_BEFORE.search(text[edit.end() :]):
        out.append(("preprocessing_edited", edit.group(0)))
    layout, softmax = _NCHW.search(text), _LAST_AXIS_SOFTMAX.search(text)
    if layout and softmax:
        out.append(("softmax_over_spatial_axis", f"{layout.group(0)} ... {softmax.group(0)}"))
    # One linear layer cannot represent x1*x2, x^2 or sin(x): the fit stops at the best plane, whatever the training.
    if (lin := _ONE_LINEAR.search(text)) and _NONLINEAR.search(text) and not _HIDDEN.search(text):
        out.append(("linear_fit_nonlinear", lin.group(0)))
    # A text model (no batch norm) whose prediction for an example moves with the batch around it.
    if _TEXT_MODEL.search(text) and (_NO_BATCHNORM.search(text) or not _BATCHNORM.search(text)):
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            if _PREDICTION.search(sentence) and _IN_A_BATCH.search(sentence) and _CHANGES.search(sentence):
                out.append(("batched_text_differs", sentence.strip()))
                break
    return out
