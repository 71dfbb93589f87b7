"""Cue detectors for common edits in a diff: deleted safety lines, changed axes, moved calls.

Each one looks at a whole hunk, because the evidence is a relation between what a change removes
and what it adds (a line deleted and not put back, a `dim` that changed, a call moved into a loop).

May import: schemas, the cue registry and helpers.
"""

from __future__ import annotations

import re

from debug_agent.cues._helpers import OPT_CTOR, _enclosing_loop, _gone, _indent, _removed_added
from debug_agent.cues.registry import cue, strip_comment
from debug_agent.schemas import DiffHunk, DiffLine

Hit = tuple[DiffLine, str]


def _code(ln: DiffLine) -> str:
    return strip_comment(ln.text)


# --- deleted lines --------------------------------------------------------------------------------


@cue("permute_removed", scope="hunk", on=("diff",))
def permute_removed(hunk: DiffHunk) -> list[Hit]:
    """The change deletes a permute/transpose/movedim: a later reshape or view now reads the old axis order."""
    found = _gone(hunk, r"\.(?:permute|transpose|movedim|swapaxes)\(|\.t\(\)")
    why = ": the axes keep their old order, so a reshape/view after it mixes them"
    return [(ln, detail + why) for ln, detail in found]


@cue("causal_mask_removed", scope="hunk", on=("diff",))
def causal_mask_removed(hunk: DiffHunk) -> list[Hit]:
    """The change deletes the causal/attention mask (a masked_fill with a mask, a tril/triu mask)."""
    found = _gone(hunk, r"masked_fill_?\(.*(mask|tril|triu|causal|bias)|\b(tril|triu)\s*\(|is_causal\s*=\s*True")
    return [(ln, detail + ": later positions may now be visible") for ln, detail in found]


@cue("padding_mask_dropped", scope="hunk", on=("diff",))
def padding_mask_dropped(hunk: DiffHunk) -> list[Hit]:
    """The change stops passing the padding mask to a model or attention call (attention_mask=, key_padding_mask=)."""
    found = _gone(hunk, r"\b(?:attention_mask|(?:src_|tgt_)?key_padding_mask|padding_mask)\s*=(?!=)")
    return [(ln, detail + ": padded positions are attended again") for ln, detail in found]


# A call to a loss that applies its own softmax or sigmoid, up to (one level of nested brackets) an argument.
_LOSS_CALL = r"(?:cross_entropy|with_logits|criterion|loss_f\w*)\((?:[^()]|\([^()]*\))*"


@cue("softmax_added_to_output", scope="hunk", on=("diff",))
def softmax_added_to_output(hunk: DiffHunk) -> list[Hit]:
    """The change makes forward return softmax (or sigmoid) probabilities: a cross-entropy (or with-logits)
    loss then applies its own softmax (or sigmoid) again."""
    removed, added = _removed_added(hunk)
    if any(re.search(r"softmax\(|sigmoid\(", _code(r)) for r in removed):
        return []  # an activation moved or edited, not added
    kept = [ln for ln in hunk.lines if ln.kind != "-"]
    returns = " ".join(_code(ln) for ln in kept if re.match(r"\s*return\b", ln.text))
    out = []
    for a in added:
        code = _code(a)
        if re.search(r"\blog_softmax\b|loss|criterion", code):
            continue
        if m := re.match(r"\s*(\w+)\s*=\s*(?:torch\.|F\.|nn\.functional\.)?(?:softmax|sigmoid)\(", code):
            later = " ".join(_code(ln) for ln in kept[kept.index(a) + 1 :])
            if re.search(rf"\breturn\b.*\b{m.group(1)}\b", returns):
                out.append((a, f"adds `{code.strip()}` before the return: the model now outputs probabilities"))
            elif re.search(_LOSS_CALL + rf"\b{m.group(1)}\b", later):
                out.append((a, f"adds `{code.strip()}`, and the probabilities feed a loss that applies its own"))
        elif re.match(r"\s*return\b.*\b(?:softmax|sigmoid)\(", code):
            out.append((a, f"adds `{code.strip()}`: the model now outputs probabilities"))
    return out


@cue("eval_call_removed", scope="hunk", on=("diff",))
def eval_call_removed(hunk: DiffHunk) -> list[Hit]:
    """The change deletes a model.eval() call (or train(False))."""
    return _gone(hunk, r"\.eval\(\s*\)|\.train\(\s*False\s*\)")


@cue("attn_scale_removed", scope="hunk", on=("diff",))
def attn_scale_removed(hunk: DiffHunk) -> list[Hit]:
    """The change deletes the 1/sqrt(d) scaling of attention scores."""
    scaled = re.compile(r"/\s*(math\.|np\.|torch\.)?sqrt\(|\*\*\s*-?0?\.5|\*\s*self\.scale\b|\bscale\s*=\s*\w")
    removed, added = _removed_added(hunk)
    if any(scaled.search(_code(a)) for a in added):
        return []
    out = []
    for r in removed:
        code = _code(r)
        if scaled.search(code) and re.search(r"score|attn|att\b|@|matmul|bmm|einsum|q\w*\s*@|transpose", code):
            out.append((r, f"removes `{r.text.strip()}`: attention scores are no longer scaled by 1/sqrt(d)"))
    return out


@cue("grad_accum_division_removed", scope="hunk", on=("diff",))
def grad_accum_division_removed(hunk: DiffHunk) -> list[Hit]:
    """The change deletes the division of the loss by the number of gradient-accumulation steps."""
    found = _gone(hunk, r"/\s*(self\.|args\.|cfg\.|config\.)?\w*(accum|acc_steps|grad_acc)\w*")
    return [(ln, detail + ": accumulated gradients are now N times larger") for ln, detail in found]


@cue("freeze_removed", scope="hunk", on=("diff",))
def freeze_removed(hunk: DiffHunk) -> list[Hit]:
    """The change deletes requires_grad = False (or requires_grad_(False)): frozen layers now train."""
    return _gone(hunk, r"requires_grad\s*=\s*False|requires_grad_\(\s*False\s*\)|\.freeze\(\)")


@cue("ignore_index_removed", scope="hunk", on=("diff",))
def ignore_index_removed(hunk: DiffHunk) -> list[Hit]:
    """The change deletes ignore_index (or the -100 padding labels) from the loss or the labels."""
    found = _gone(hunk, r"ignore_index|-100\b")
    return [(ln, detail + ": padding positions now count in the loss") for ln, detail in found]


_BATCH_N = r"(?:n|bs|\w*batch_size|\w*[bB]atchSize\b|len\([^)]*\)|\w+\.size\(0\)|\w+\.shape\[0\])"


@cue("average_weight_dropped", scope="hunk", on=("diff",))
def average_weight_dropped(hunk: DiffHunk) -> list[Hit]:
    """The change stops weighting a running average by the batch size (`n=len(labels)`, `sum += val * n`,
    `count += n`): a smaller last batch then counts as much as a full one, so the metric moves with batch size."""
    found = _gone(
        hunk,
        rf"\bn\s*=\s*(?:len\(|\w+\.(?:size\(0\)|shape\[0\])|\w*batch_size\b)|\+=\s*[\w.()\[\]]+\s*\*\s*{_BATCH_N}\s*$"
        rf"|\+=\s*{_BATCH_N}\s*$"
        # the same written out: `top1Sum = top1Sum + top1*batchSize`, `N = N + batchSize` (Lua, older Python)
        rf"|(?P<s>\w+)\s*=\s*(?P=s)\s*\+\s*[\w.()\[\]]+\s*\*\s*{_BATCH_N}\s*$|(?P<c>\w+)\s*=\s*(?P=c)\s*\+\s*{_BATCH_N}\s*$",
    )
    why = ": every batch now weighs the same in the average, whatever its size"
    return [(ln, detail + why) for ln, detail in found]


# --- changed or moved code ------------------------------------------------------------------------



@cue("optimizer_all_params", scope="hunk", on=("diff",))
def optimizer_all_params(hunk: DiffHunk) -> list[Hit]:
    """The optimizer now gets model.parameters() where it got a trainable subset before."""
    removed, added = _removed_added(hunk)
    subset = re.compile(r"requires_grad|trainable|\w+\.\w+\.parameters\(\)|param_groups?|filter\(")
    if not any(OPT_CTOR.search(_code(r)) and subset.search(_code(r)) for r in removed):
        return []
    return [
        (a, f"the optimizer now gets every parameter (`{a.text.strip()}`), frozen ones included")
        for a in added
        if OPT_CTOR.search(_code(a))
        and re.search(r"\b(model|net|self|module)\w*\.parameters\(\)", _code(a))
        and not subset.search(_code(a))
    ]


_SOFTMAX_DIM = re.compile(
    r"\b(log_softmax|softmax|softmin|LogSoftmax|Softmax)\s*\((?:[^()]|\([^()]*\))*?\bdim\s*=\s*(-?\d+)"
)
_SOFTMAX_POS = re.compile(r"\b(log_softmax|softmax|softmin)\s*\(\s*[\w.\[\]:, ]+?,\s*(-?\d+)\s*\)")


def _softmax_dims(code: str) -> set[tuple[str, str]]:
    return {(m.group(1).lower(), m.group(2)) for rx in (_SOFTMAX_DIM, _SOFTMAX_POS) for m in rx.finditer(code)}


@cue("softmax_dim_changed", scope="hunk", on=("diff",))
def softmax_dim_changed(hunk: DiffHunk) -> list[Hit]:
    """The change moves a softmax/log_softmax to another dim."""
    removed, added = _removed_added(hunk)
    before = {d for r in removed for d in _softmax_dims(_code(r))}
    out = []
    for a in added:
        for fn, dim in _softmax_dims(_code(a)):
            old = {d for f, d in before if f == fn}
            if old and dim not in old:
                out.append((a, f"{fn} moved from dim={'/'.join(sorted(old))} to dim={dim}"))
    return out


_SHIFT = re.compile(
    r"\[\s*(?:\.\.\.|:)\s*,\s*(?:1\s*:|:\s*-\s*1)\s*(?:,\s*:?\s*)?\]|\[\s*(?:1\s*:|:\s*-\s*1)\s*\]|"
    r"shift_(labels|logits)|\.roll\(|labels?\s*=\s*\w+\[\s*:?\s*,?\s*1\s*:|\.shift\(\s*-?\d+\s*\)"
)


@cue("label_shift_changed", scope="hunk", on=("diff",))
def label_shift_changed(hunk: DiffHunk) -> list[Hit]:
    """The change adds, removes or moves a label/logit shift ([:, 1:], [..., :-1], shift_labels)."""
    removed, added = _removed_added(hunk)

    def shifts(lines: list[DiffLine]) -> list[tuple[DiffLine, str]]:
        return [(ln, m.group(0)) for ln in lines for m in [_SHIFT.search(_code(ln))] if m and _labelish(_code(ln))]

    gone, new = shifts(removed), shifts(added)
    if sorted(s for _, s in gone) == sorted(s for _, s in new):
        return []
    if new:
        return [(ln, f"changes label shifting (`{s}`): labels may now be shifted twice or not at all") for ln, s in new]
    return [(ln, f"removes label shifting (`{s}`): labels may no longer be shifted") for ln, s in gone]


def _labelish(code: str) -> bool:
    return bool(re.search(r"label|target|logit|\by\b|tgt|input_ids|tokens", code))


@cue("scheduler_step_in_batch_loop", scope="hunk", on=("diff",))
def scheduler_step_in_batch_loop(hunk: DiffHunk) -> list[Hit]:
    """The change puts scheduler.step() inside the loop over batches (per step, not per epoch)."""
    step = re.compile(r"\b(sched\w*|lr_sched\w*)\.step\(")
    out = []
    removed_indents = [_indent(r.text) for r in hunk.lines if r.kind == "-" and step.search(_code(r))]
    for i, ln in enumerate(hunk.lines):
        if ln.kind != "+" or not step.search(_code(ln)):
            continue
        loop = _enclosing_loop(hunk.lines[:i], _indent(ln.text))
        moved_in = any(ind < _indent(ln.text) for ind in removed_indents)
        per_batch = loop is not None and re.search(r"loader|batch|\bdata\b|\bstep\b|enumerate\(", loop)
        if moved_in or (per_batch and not re.search(r"epoch", loop or "")):
            out.append((ln, "scheduler.step() now runs inside the batch loop: the schedule advances per batch"))
    return out


@cue("eval_helper_in_train_loop", scope="hunk", on=("diff",))
def eval_helper_in_train_loop(hunk: DiffHunk) -> list[Hit]:
    """The change calls, inside a training loop, a helper that switches to eval() and never back to train()."""
    new = [ln for ln in hunk.lines if ln.kind != "-"]
    return _calls_before_next_step(new, _eval_only_helpers(new), "switches the model to eval()")


_VALIDATION_NAME = re.compile(r"^(?:validat\w*|valid|evaluat\w*|run_validation|run_eval|do_eval|eval_\w+)$")


@cue("validation_call_in_train_loop", scope="hunk", on=("diff",))
def validation_call_in_train_loop(hunk: DiffHunk) -> list[Hit]:
    """The change calls a validation routine defined elsewhere (`validate(...)`) inside the training loop, and
    nothing switches back to train() before the next training step: most such routines call eval()."""
    new = [ln for ln in hunk.lines if ln.kind != "-"]
    defined = {m.group(1) for ln in new if (m := re.match(r"\s*def\s+(\w+)\s*\(", _code(ln)))}
    called = {m.group(1) for ln in new if ln.kind == "+" for m in re.finditer(r"\b(\w+)\s*\(", _code(ln))}
    names = {n for n in called if _VALIDATION_NAME.match(n) and n not in defined}
    return _calls_before_next_step(new, names, "runs validation, which usually calls eval(),")


def _calls_before_next_step(new: list[DiffLine], names: set[str], what: str) -> list[Hit]:
    """Added calls of `names` inside a loop whose next training step comes with no train() before it."""
    out = []
    for i, ln in enumerate(new):
        hit = next((n for n in re.findall(r"\b(\w+)\s*\(", _code(ln)) if n in names), None)
        if ln.kind != "+" or hit is None or re.match(r"\s*def\s", _code(ln)):
            continue
        loop = _enclosing_loop(new[:i], _indent(ln.text))
        if loop is None:
            continue
        # What runs next: the lines after the call, then (next iteration) the loop body above it.
        top = max(j for j in range(i) if _code(new[j]) == loop)
        after = "\n".join(_code(r) for r in new[i + 1 : i + 40] + new[top + 1 : i])
        step = re.search(r"zero_grad\(|\.backward\(|optim\w*\.step\(|(?<![.\w])\w*train\w*\s*\(", after)
        if step and not re.search(r"\.train\(\s*(True)?\s*\)", after[: step.start()]):
            out.append((ln, f"`{hit}()` {what} inside the training loop; "
                        "nothing switches it back before the next training step"))  # fmt: skip
    return out


def _eval_only_helpers(lines: list[DiffLine]) -> set[str]:
    """Functions defined in these lines whose body calls .eval() and never .train()."""
    names = set()
    for i, ln in enumerate(lines):
        m = re.match(r"\s*def\s+(\w+)\s*\(", _code(ln))
        if not m:
            continue
        body = []
        for r in lines[i + 1 :]:
            if _code(r).strip() and _indent(r.text) <= _indent(ln.text):
                break
            body.append(_code(r))
        text = "\n".join(body)
        if re.search(r"\.eval\(\s*\)", text) and not re.search(r"\.train\(", text):
            names.add(m.group(1))
    return names


# --- state resets and the gradient path --------------------------------------------------------------

_RESET = re.compile(
    r"^\s*(\w+)\s*=\s*(?:.*\b(?:zeros|zeros_like|new_zeros|init_hidden|init_state|initial_state|begin_state)\b.*"
    r"|None)\s*$"
)


@cue("state_reset_hoisted", scope="hunk", on=("diff",))
def state_reset_hoisted(hunk: DiffHunk) -> list[Hit]:
    """The change moves a state reset (`h = zeros(...)`) out of the loop it sat in: the state now carries over."""
    added = [ln for ln in hunk.lines if ln.kind == "+"]
    out = []
    for i, r in enumerate(hunk.lines):
        m = _RESET.match(_code(r)) if r.kind == "-" else None
        if not m or _enclosing_loop(hunk.lines[:i], _indent(r.text)) is None:
            continue
        for a in added:
            n = _RESET.match(_code(a))
            if n and n.group(1) == m.group(1) and _indent(a.text) < _indent(r.text):
                out.append((a, f"`{m.group(1)}` is now reset once, outside the loop that reset it each time: "
                            "its value carries from one example or batch to the next"))
    return out


_CUT = re.compile(r"\)\s*\.(?:item|detach|numpy|tolist)\(\)|\)\s*\.data\b|\btorch\.(?:tensor|as_tensor)\(\s*\w+\s*\)")
_LOSS_FUNCS = re.compile(r"forward|loss|training_step|train_step|__call__")


@cue("gradient_cut_added", scope="hunk", on=("diff",))
def gradient_cut_added(hunk: DiffHunk) -> list[Hit]:
    """The change turns a computed term into a plain number (`.item()`, `.detach()`, `torch.tensor(list)`) and
    that value still flows into what is backpropagated or returned as the loss: the term trains nothing."""
    removed = " ".join(_code(r) for r in hunk.lines if r.kind == "-")
    new = [ln for ln in hunk.lines if ln.kind != "-"]
    out = []
    for i, ln in enumerate(new):
        m = _CUT.search(_code(ln)) or _rewrapped(_code(ln), removed)
        name = re.match(r"\s*(\w+)\s*(?:[-+*/]?=(?!=)|\.(?:append|extend)\()", _code(ln))
        if ln.kind != "+" or not m or not name or m.group(0) in removed:
            continue
        if _reaches_loss(name.group(1), new[i + 1 :], _func_of(hunk, new[:i])):
            out.append((ln, f"`{m.group(0).lstrip(')').strip()}` makes `{name.group(1)}` a constant, yet it still "
                        "feeds the loss: no gradient flows through this term"))
    return out


def _rewrapped(code: str, removed: str) -> re.Match[str] | None:
    """`torch.tensor(xs, ...)` where the removed code stacked the same `xs` with torch.stack/cat: the list's
    tensors lose their graph."""
    m = re.search(r"\btorch\.(?:tensor|as_tensor)\(\s*([\w.]+)(?=\s*[,)])", code)
    stacked = m and re.search(rf"\btorch\.(?:stack|cat)\(\s*{re.escape(m.group(1))}\s*[,)]", removed)
    return m if stacked else None


def _reaches_loss(name: str, later: list[DiffLine], func: str | None) -> bool:
    """Whether `name` flows (by assignment) into a backward() call, or into a return of a loss-computing function."""
    names = {name}
    for ln in later:
        code = _code(ln)
        if not any(re.search(rf"\b{re.escape(n)}\b", code) for n in names):
            continue
        if ".backward(" in code or (re.match(r"\s*return\b", code) and _LOSS_FUNCS.search(func or "")):
            return True
        if lhs := re.match(r"\s*(\w+)\s*[-+*/]?=(?!=)", code):
            names.add(lhs.group(1))
    return False


def _func_of(hunk: DiffHunk, before: list[DiffLine]) -> str | None:
    """The function a line sits in: the nearest `def` above, else the hunk header's (a class is taken as
    its forward: git names the class when the method's def is out of sight)."""
    for ln in reversed(before):
        if m := re.match(r"\s*(?:async\s+)?def\s+(\w+)", _code(ln)):
            return m.group(1)
    m = re.search(r"def\s+(\w+)|class\s+\w+\s*\((?:nn\.)?Module\)", hunk.header)
    return (m.group(1) or "forward") if m else None


# --- reordering ------------------------------------------------------------------------------------

_PERM = r"(?:torch\.randperm|np\.random\.permutation|(?:rng|generator|gen)\.permutation|\w*\.?argsort)\("


@cue("one_side_reordered", scope="hunk", on=("diff",))
def one_side_reordered(hunk: DiffHunk) -> list[Hit]:
    """The change reorders one array by a permutation (`x = x[perm]`) and nothing else in the hunk by it:
    the labels (or the inputs) stay in the old order and no longer belong to their rows."""
    kept = [ln for ln in hunk.lines if ln.kind != "-"]
    perms = {m.group(1) for ln in kept if (m := re.match(rf"\s*(\w+)\s*=\s*{_PERM}", _code(ln)))}
    out = []
    for ln in kept:
        if ln.kind != "+":
            continue
        m = re.match(rf"\s*(\w+)\s*=\s*\1\[\s*(\w+|{_PERM}.*)\]\s*$", _code(ln))
        if not m or (m.group(2) not in perms and not re.match(_PERM, m.group(2))):
            continue
        index = m.group(2) if m.group(2) in perms else None
        others = [
            o for o in kept
            if o is not ln and index and re.search(rf"(\w+)\s*=\s*(?!{m.group(1)}\b)\w+\[\s*{index}\s*\]", _code(o))
        ]
        if not others:
            out.append((ln, f"adds `{ln.text.strip()}`: only `{m.group(1)}` is reordered, what pairs with it is not"))
    return out


@cue("eval_mode_kept", scope="hunk", on=("diff",))
def eval_mode_kept(hunk: DiffHunk) -> list[Hit]:
    """The code around the change puts the model in eval mode (`model.eval()` kept or added): evidence
    against an evaluation that runs in training mode."""
    on = re.compile(r"\.eval\(\s*\)|\.train\(\s*False\s*\)")
    kept = [i for i, ln in enumerate(hunk.lines) if ln.kind != "-" and on.search(_code(ln))]
    back = re.compile(r"\.train\(\s*(True)?\s*\)")
    if not kept or any(ln.kind == "+" and back.search(_code(ln)) for ln in hunk.lines[kept[0] + 1 :]):
        return []  # a train() added after it switches evaluation back to training mode
    ln = hunk.lines[kept[0]]
    return [(ln, f"`{ln.text.strip()}` is called in the changed code")]
