"""Word-read facts about what a reporter traced by hand: which axis a normalisation sums to one over, which
recurrent state crosses an episode boundary, what an evaluation script's number disagrees with.

Same form as `_fact_words.RULES` (fact id, what the fact says, regular expressions tried per sentence,
case-insensitive); every id here is defined elsewhere too, and these are further ways a reporter states it.
Rules name the observation, never a cause; what a fact means for each cause is the catalog's `facts` tables.

May import: nothing of ours.
"""

# ruff: noqa: E501  (a table of regular expressions: one pattern per line reads better than split strings)

from __future__ import annotations

_SUMS = r"\b(?:add|sum)s? (?:up )?to"
_STATE = r"(?:hidden|cell|recurrent|rnn|lstm|gru|memory)(?: and cell)?(?: states?| memory)?"

RULES: list[tuple[str, str, list[str]]] = [
    # One axis sums to exactly one while the other does not: the normalisation runs over the wrong axis.
    ("sums_over_wrong_axis", "probabilities sum to one over the wrong axis", [
        rf"^(?=.*{_SUMS} (?:anything |somewhere |values? )?(?:between|from) (?:about )?0?\.\d)(?=.*{_SUMS} exactly (?:one|1)\b)",
    ]),
    ("state_carried", "a hidden state or buffer is carried over between calls", [
        rf"\b{_STATE}\b.{{0,60}}\binto the (?:new|next) (?:episode|sequence|utterance|game)",
        rf"\b(?:keeps?|kept|carr(?:y|ies|ied)) (?:its |their |the )?(?:old |previous |stale )?{_STATE}\b.{{0,40}}\b(?:new|next) (?:episode|sequence|game)",
    ]),
    ("order_dependent", "results depend on what was processed before", [
        r"(?:first|opening) (?:steps?|actions?|outputs?|q-?values?)\b.{0,40}\bnew episode\b.{0,80}\b(?:change|depend|differ)\w*\b.{0,80}\b(?:previous|last|old|prior) episode",
        r"\bnew episode\b.{0,60}\b(?:change|depend|differ)\w*\b.{0,40}\b(?:alter|change|perturb)\w* (?:the )?(?:observations?|inputs?|states?) (?:from|of) (?:the )?(?:previous|last|old|prior) episode",
    ]),
    ("shallower_works", "a shallower model (fewer layers or blocks) trains well where the deep one does not", [
        r"\b(?:shallower|fewer (?:layers|blocks|stages)|less deep)\b.{0,60}\b(?:well[- ]behaved|stable|trains? (?:fine|well|normally)|works?(?: fine| well)?|converges?|is fine|behaves?)\b",
    ]),
    # The reference value named in words rather than as a number: "still log(number of classes)".
    ("loss_at_chance", "a loss at the value of uniform guessing (ln C for C classes)", [
        r"\b(?:loss|cross[- ]?entropy|nll)\b(?:\s+(?:is|was|stays?|stayed|sits?|sat|remains?|remained|still|stuck|at|around|about|near|close to|essentially|basically|roughly|exactly|approximately|~))+\s*(?:ln|log)\s*\(\s*(?:the )?(?:number|count|no\.?) of (?:classes|labels|categories|\w+)\s*\)",
        r"\b(?:loss|cross[- ]?entropy|nll)\b(?:\s+(?:is|was|stays?|stayed|sits?|sat|remains?|remained|still|stuck|at|around|about|near|close to|essentially|basically|roughly|exactly|approximately|~))+\s*(?:ln|log) of the number of (?:classes|labels|categories)\b",
    ]),
    ("loss_slow", "the loss falls, but very slowly", [
        r"\bloss\b.{0,30}\b(?:moves?|changes?|drops?|decreases?|improves?) (?:only )?in the (?:third|fourth|fifth|sixth|3rd|4th|5th|6th) decimal",
    ]),
    ("metric_recomputed_differs", "the same metric computed another way gives a different number", [
        r"\bmy own (?:\w+ ){0,2}(?:computed|calculated|implementation|computation|code)\b.{0,80}\b(?:higher|lower|different)\b.{0,40}\b(?:script|code|tool|library|evaluat\w*|metric)\b.{0,20}(?:reports?|prints?|gives?|says?|shows?|computes?)",
    ]),
    # Training inputs that move when only evaluation-period values are edited: a statistic fitted over both.
    ("fitted_on_all_data", "preprocessing or encodings fitted on all the data before the split", [
        r"\b(?:edit|chang|alter|modif|perturb|corrupt|tweak|zero)\w*\b.{0,80}\b(?:test|val\w*|held[- ]?out|evaluation)\b (?:period|split|set|portion|part|rows|window|months|weeks|days|range|years)\b.{0,80}\btrain\w*\W{0,2} (?:\w+ )?(?:windows|inputs|data|features|values|rows|samples|matrix|array|batches|examples|sequences)\b.{0,40}(?<!n't )(?<!not )(?<!never )\b(?:change[sd]?|no longer (?:the )?same|differ|move[sd]?|shift(?:s|ed)?)\b",
    ]),
    # Gradients checked one by one: "for the first there is a gradient, for the others it's all zeros".
    ("grad_none", "gradients are None or exactly zero", [
        r"\bgrad\w*\b.{0,80}\b(?:it'?s|they'?re|they are|are|were|come out|came out) (?:all |exactly |entirely |just )?(?:zeros|zeroes|all zero)\b",
    ]),
    # "Could you check the model and the loss before I spend time on tuning?": a check asked for, nothing wrong told.
    ("healthy_request", "a request for a check with no failure described", [
        r"\b(?:could|can|would) you (?:please )?(?:check|look (?:at|over)|review|go over)\b.{0,40}\b(?:model|code|loss|network|training|setup|pipeline|script)\b",
    ]),
    ("metric_contradicts_outputs", "the reported metric and the outputs, looked at, disagree", [
        r"\bdifferent (?:confidence |score )?(?:rankings?|scores?|predictions?|outputs?|detections?)\b.{0,40}\b(?:get|give|have|score)s? (?:exactly )?the same (?:m?ap|auc|accuracy|f1|score|metric|value)\b",
    ]),
]
