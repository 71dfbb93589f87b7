"""Built-in cue detectors for the training loop and the data pipeline (model-code cues: cue_rules.py)."""

from __future__ import annotations

import ast
import re

from debug_agent.cues._helpers import _first_line, _functions, _gone, _removed_added, _src
from debug_agent.cues.registry import cue, strip_comment
from debug_agent.schemas import DiffHunk, DiffLine

# --- optimisation ---------------------------------------------------------------------------------

_LR_RE = re.compile(r"\blr\s*=\s*([0-9][0-9.]*(?:e-?[0-9]+)?)", re.I)


def _lr(code: str) -> float | None:
    m = _LR_RE.search(code)
    return float(m.group(1)) if m else None


@cue("lr_large")
def lr_large(code: str, func: str | None) -> str | None:
    """A learning rate far above the usual range (Adam/RMSprop >= 0.05, other optimisers >= 1)."""
    lr = _lr(code)
    if lr is None:
        return None
    if re.search(r"Adam|RMSprop|Adagrad", code) and lr >= 0.05 or lr >= 1.0:
        return f"learning rate {lr:g} is high for this optimiser"
    return None


@cue("lr_tiny")
def lr_tiny(code: str, func: str | None) -> str | None:
    """A learning rate of 1e-6 or less."""
    lr = _lr(code)
    return f"learning rate {lr:g} is tiny" if lr is not None and 0 < lr <= 1e-6 else None


@cue("zero_grad_removed", scope="hunk", on=("diff",))
def zero_grad_removed(hunk: DiffHunk) -> list[tuple[DiffLine, str]]:
    """The change deletes a zero_grad() call."""
    return _gone(hunk, r"zero_grad\(|\.grad\s*=\s*None|\.grad(?:\.data)?\.zero_\(")


@cue("accumulator_reset_removed", scope="hunk", on=("diff",))
def accumulator_reset_removed(hunk: DiffHunk) -> list[tuple[DiffLine, str]]:
    """The change deletes the reset of something that accumulates over batches (a metric's `reset()`, a
    list's `clear()`): from then on it carries every earlier batch and epoch. An environment's reset is not."""
    return _gone(hunk, r"(?<!env)(?<!envs)\.(?:reset|reset_states|clear)\(\s*\)")


@cue("clip_removed", scope="hunk", on=("diff",))
def clip_removed(hunk: DiffHunk) -> list[tuple[DiffLine, str]]:
    """The change deletes gradient clipping."""
    return _gone(hunk, r"clip_grad_(norm|value)_")


@cue("normalization_removed", scope="hunk", on=("diff",))
def normalization_removed(hunk: DiffHunk) -> list[tuple[DiffLine, str]]:
    """The change deletes input normalisation or scaling."""
    return _gone(
        hunk, r"Normalize\(|StandardScaler|/\s*255|-\s*\w*mean\w*\)?\s*\)?\s*/\s*\w*std|\.normalize\(|scaler\."
    )


@cue("requires_grad_false")
def requires_grad_false(code: str, func: str | None) -> str | None:
    """Parameters frozen with requires_grad = False."""
    return "freezes parameters" if re.search(r"requires_grad\s*=\s*False|requires_grad_\(\s*False\s*\)", code) else None


@cue("missing_zero_grad", scope="file", on=("source",))
def missing_zero_grad(path: str, text: str) -> list[tuple[int, str]]:
    """A function that calls backward() and step() but never clears gradients."""
    out = []
    for fn in _functions(text):
        body = _src(text, fn)
        if ".backward(" in body and ".step(" in body and not re.search(r"zero_grad|\.grad\s*=\s*None", body):
            out.append((_first_line(text, fn, r"\.backward\("), f"`{fn.name}` steps without zero_grad()"))
    return out


@cue("missing_step", scope="file", on=("source",))
def missing_step(path: str, text: str) -> list[tuple[int, str]]:
    """A training function that calls backward() but never optimizer.step()."""
    out = []
    for fn in _functions(text):
        body = _src(text, fn)
        if ".backward(" in body and ".step(" not in body and re.search(r"opt\w*|optimizer", body):
            out.append((_first_line(text, fn, r"\.backward\("), f"`{fn.name}` calls backward() but never step()"))
    return out


@cue("plain_list_modules", scope="file", on=("source",))
def plain_list_modules(path: str, text: str) -> list[tuple[int, str]]:
    """Sub-modules kept in a plain Python list, so the module never registers their parameters."""
    out = []
    lists: set[str] = set()
    for no, raw in enumerate(text.splitlines(), start=1):
        code = strip_comment(raw)
        if m := re.search(r"self\.(\w+)\s*=\s*\[\s*\]", code):
            lists.add(m.group(1))
        elif m := re.search(r"self\.(\w+)\s*=\s*\[.*\bnn\.[A-Z]\w*\(", code):
            out.append((no, f"self.{m.group(1)} is a plain list of modules; use nn.ModuleList"))
        elif (m := re.search(r"self\.(\w+)\.append\(\s*nn\.[A-Z]\w*\(", code)) and m.group(1) in lists:
            out.append((no, f"modules appended to plain list self.{m.group(1)}; use nn.ModuleList"))
    return out


# --- data -----------------------------------------------------------------------------------------


_PERM_CALL = re.compile(r"\b(?:randperm|permutation|shuffle)\w*\s*\(")


def _permutation_uses(text: str, fn: ast.AST) -> dict[str, set[str]]:
    """Each random permutation made in `fn` (`idx = torch.randperm(n)`), mapped to the tensors it indexes."""
    perms = {
        t.id
        for node in ast.walk(fn)
        if isinstance(node, ast.Assign) and _PERM_CALL.search(ast.get_source_segment(text, node.value) or "")
        for t in node.targets
        if isinstance(t, ast.Name)
    }
    uses: dict[str, set[str]] = {p: set() for p in perms}
    for node in ast.walk(fn):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Name) and node.slice.id in perms:
            uses[node.slice.id].add(ast.get_source_segment(text, node.value) or "")
    return uses


@cue("separate_shuffle", scope="file", on=("source",))
def separate_shuffle(path: str, text: str) -> list[tuple[int, str]]:
    """Inputs and labels shuffled by two different permutations."""
    rx = re.compile(
        r"(\w+)\s*=\s*\1\[\s*(?:torch\.randperm|np\.random\.permutation)\(|(?:random|np\.random|rng)\.shuffle\(\s*(\w+)"
    )
    for fn in _functions(text) or []:
        body_lines = _src(text, fn).splitlines()
        hits = []
        for off, raw in enumerate(body_lines):
            if m := rx.search(strip_comment(raw)):
                hits.append((fn.lineno + off, m.group(1) or m.group(2)))
        if len({v for _, v in hits}) >= 2:
            return [(hits[1][0], f"{hits[0][1]} and {hits[1][1]} are shuffled by separate permutations")]
        # idx_x = randperm(n); idx_y = randperm(n); ... x[idx_x] ... y[idx_y] (a mixup partner batch)
        used = {p: sorted(ts)[0] for p, ts in _permutation_uses(text, fn).items() if ts}
        if len(used) >= 2 and len(set(used.values())) >= 2:
            (p1, t1), (p2, t2) = sorted(used.items())[:2]
            line = _first_line(text, fn, r"randperm|permutation|shuffle")
            return [(line, f"{t1}[{p1}] and {t2}[{p2}] are reordered by separate permutations")]
    return []


_FIT = re.compile(r"\.fit(?:_transform)?\(\s*(\w*)|\b(?:mean|std)\(\s*(?:dim|axis)?")
_SPLIT = re.compile(
    r"train_test_split|random_split|\[\s*:\s*n_train|\[\s*:\s*\w*(?:train|split|cut)\w*\s*\]"
    r"|\bsplit\w*\s*=|\bdivide\w*\("
    r"|(?<![.\w])split_\w*\(|\[\s*(?:tr|train)\w*_?idx\w*\s*\]"  # split_by_date(...), data[tr_idx]
)


@cue("fit_moved_before_split", scope="hunk", on=("diff",))
def fit_moved_before_split(hunk: DiffHunk) -> list[tuple[DiffLine, str]]:
    """The change adds a fit (scaler, mean/std) on data that is split into train/test only afterwards."""
    kept = [ln for ln in hunk.lines if ln.kind != "-"]
    for i, ln in enumerate(kept):
        m = _FIT.search(strip_comment(ln.text))
        if ln.kind != "+" or not m or "train" in (m.group(1) or "").lower():
            continue
        if any(_SPLIT.search(strip_comment(later.text)) for later in kept[i + 1 :]):
            return [(ln, f"adds `{ln.text.strip()}` before the train/test split: test statistics leak into training")]
    return []


@cue("fit_before_split", scope="file", on=("source",))
def fit_before_split(path: str, text: str) -> list[tuple[int, str]]:
    """A scaler/statistic fitted on the full data before the train/validation split."""
    lines = [strip_comment(raw) for raw in text.splitlines()]
    fit = next((i for i, c in enumerate(lines) if _FIT.search(c)), None)
    split = next((i for i, c in enumerate(lines) if _SPLIT.search(c)), None)
    if fit is not None and split is not None and fit < split:
        return [(fit + 1, "statistics fitted before the train/validation split")]
    return []


@cue("cache_touched", on=("diff",))
def cache_touched(code: str, func: str | None) -> str | None:
    """The change touches preprocessing that may be cached on disk."""
    m = re.search(r"\b(cache\w*|preprocess\w*|tokeni[sz]\w*|pickle|np\.save|torch\.save)\b", code)
    return f"changes cached preprocessing (`{m.group(0)}`)" if m else None


@cue("cached_preprocessing_changed", scope="hunk", on=("diff",))
def cached_preprocessing_changed(hunk: DiffHunk) -> list[tuple[DiffLine, str]]:
    """The change edits preprocessing next to code, left as it was, that reads its results back from a cache."""
    reads_cache = re.compile(
        r"pickle\.loads?\(|np\.load\(|torch\.load\(|\bcache\w*\b.*\.exists\(|\.exists\(\).*\bcache"
    )
    weights = re.compile(r"load_state_dict|pretrained|checkpoint|ckpt")  # model weights loaded, not cached data
    lines = [ln for ln in hunk.lines if reads_cache.search(strip_comment(ln.text)) and not weights.search(ln.text)]
    added = [ln for ln in hunk.lines if ln.kind in "+-" and not reads_cache.search(ln.text)]
    if not lines or not added or {ln.kind for ln in lines} == {"+", "-"}:
        return []  # the cache read itself rewritten (a new loader), not preprocessing edited behind it
    first = next((ln for ln in hunk.lines if ln.kind == "+"), added[0])
    return [(first, f"changes preprocessing whose output is read back from a cache (`{lines[0].text.strip()}`)")]


@cue("metric_edit", on=("diff",))
def metric_edit(code: str, func: str | None) -> str | None:
    """The change touches metric or logging code (a metric word in the lines, or the function they sit in)."""
    m = re.search(r"\b(accuracy|acc|metric\w*|f1|precision|recall|correct)\b", code)
    if m:
        return f"changes metric code (`{m.group(0)}`)"
    # snake_case parts count here: `aa_match_metrics`, `compute_accuracy`
    if func and re.search(r"(?:^|_)(?:accuracy|metrics?|f1|precision|recall)(?:_|$)", func.lower()):
        return f"changes metric code (in `{func}`)"
    return None


@cue("bootstrap_without_done")
def bootstrap_without_done(code: str, func: str | None) -> str | None:
    """A discounted bootstrap term (gamma * next value) with no done/terminal mask."""
    if re.search(r"gamma\s*\*", code) and re.search(
        r"next_?val\w*|values?\[\s*\w+\s*\+\s*1\s*\]|next_v\b|v_next|bootstrap", code
    ):
        if not re.search(r"done|terminal|not_?done|nonterminal|mask", code):
            return "bootstraps from the next value without (1 - done)"
    return None


_BATCH_KEY = re.compile(r"(?i)\b(\w*(?:batch_size|ims_per_batch|bs|batch)\w*)\s*[=:]\s*(\d+)")
_LR_KEY = re.compile(r"(?i)\b(?:base_lr|lr|learning_rate)\b[\"']?\s*[=:]")


@cue("batch_shrunk_lr_kept", scope="hunk", on=("diff",))
def batch_shrunk_lr_kept(hunk: DiffHunk) -> list[tuple[DiffLine, str]]:
    """The change shrinks the batch size by 4x or more while the learning rate in the same hunk stays as it was."""
    removed, added = _removed_added(hunk)
    if any(_LR_KEY.search(strip_comment(ln.text)) for ln in removed + added):
        return []  # the rate was edited too: no claim about scaling
    if not any(_LR_KEY.search(strip_comment(ln.text)) for ln in hunk.lines if ln.kind == " "):
        return []
    before = {
        m.group(1).lower(): int(m.group(2)) for ln in removed for m in _BATCH_KEY.finditer(strip_comment(ln.text))
    }
    out = []
    for ln in added:
        for m in _BATCH_KEY.finditer(strip_comment(ln.text)):
            old = before.get(m.group(1).lower())
            if old and int(m.group(2)) > 0 and old >= 4 * int(m.group(2)):
                out.append((ln, f"batch size {old} -> {m.group(2)} with the learning rate unchanged"))
    return out


_LR_VALUE = re.compile(
    r"(?i)\b(base_lr|lr|learning_rate|learning_rate_\w+|\w*_lr)\b[\"']?\s*[=:]\s*([0-9][0-9._]*(?:e-?[0-9]+)?)\b"
)


def _lr_changes(hunk: DiffHunk) -> list[tuple[DiffLine, str, float, float]]:
    """(added line, key, old rate, new rate) for each learning-rate setting the change edits."""
    removed, added = _removed_added(hunk)
    before: dict[str, float] = {}
    for ln in removed:
        for m in _LR_VALUE.finditer(strip_comment(ln.text)):
            before[m.group(1).lower()] = float(m.group(2).replace("_", ""))
    out = []
    for ln in added:
        for m in _LR_VALUE.finditer(strip_comment(ln.text)):
            old = before.get(m.group(1).lower())
            if old:
                out.append((ln, m.group(1), old, float(m.group(2).replace("_", ""))))
    return out


@cue("lr_raised", scope="hunk", on=("diff",))
def lr_raised(hunk: DiffHunk) -> list[tuple[DiffLine, str]]:
    """The change raises a learning rate 5x or more."""
    return [(ln, f"{key} {old:g} -> {new:g}") for ln, key, old, new in _lr_changes(hunk) if new >= 5 * old]


@cue("lr_lowered", scope="hunk", on=("diff",))
def lr_lowered(hunk: DiffHunk) -> list[tuple[DiffLine, str]]:
    """The change lowers a learning rate 5x or more."""
    return [(ln, f"{key} {old:g} -> {new:g}") for ln, key, old, new in _lr_changes(hunk) if 0 < new <= old / 5]

