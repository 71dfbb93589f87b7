"""Training-log lines inside a symptom: Keras-style progress lines read as numbers per split.

`Epoch 149/150 - loss: 8.4e-04 - accuracy: 1.0000 - val_loss: 0.9458 - val_accuracy: 0.6562` names its
splits by key prefix, not by words, so the sentence readers of facts.py cannot place the numbers (and
would read `0.6562 Epoch` as a fraction of an epoch, or the accuracies as a loss series). A line with at
least one `val_`-style key is read here; facts.py then runs its word and number readers on the sentence
with the log blanked out.

May import: nothing of ours.
"""

from __future__ import annotations

import re

_PAIR = re.compile(
    r"\b(val_|valid_|validation_|test_|train_)?(loss|acc|accuracy|auc|f1)\s*[:=]\s*(-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)",
    re.IGNORECASE,
)
_EPOCH = re.compile(r"\bepoch\s*\d+\s*/\s*\d+\b", re.IGNORECASE)


def log_values(sentence: str) -> tuple[dict[str, list[float]], str]:
    """Values per split from Keras-style log lines: accuracies in percent under 'train'/'val', losses under
    'train_loss'/'val_loss' (the keys facts.py compares); and the sentence with the log blanked out.
    A sentence without a split-prefixed key is returned as it is."""
    pairs = list(_PAIR.finditer(sentence))
    if len(pairs) < 2 or not any(p.group(1) for p in pairs):
        return {}, sentence
    out: dict[str, list[float]] = {}
    for p in pairs:
        prefix, kind, value = (p.group(1) or "").lower(), p.group(2).lower(), float(p.group(3))
        split = "val" if prefix and not prefix.startswith("train") else "train"
        if kind == "loss":
            out.setdefault(f"{split}_loss", []).append(value)
        else:
            out.setdefault(split, []).append(value * 100 if 0 <= value <= 1 else value)
    return out, _EPOCH.sub(" ", _PAIR.sub(" ", sentence))
