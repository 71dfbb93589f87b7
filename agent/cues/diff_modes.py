"""Cue detectors for edits that change a mode or a pace rather than a value: a `train()` switched on inside
an evaluation block, a scheduler replaced by one that expects the other stepping pace, `zero_grad()` moved
out of the batch loop, a parameter group no longer handed to the optimizer.

Each looks at a whole hunk: the evidence is the added line together with the context around it.

May import: schemas, the cue registry and helpers.
"""

from __future__ import annotations

import re

from debug_agent.cues._helpers import OPT_CTOR, _enclosing, _enclosing_loop, _gone, _indent, _removed_added
from debug_agent.cues.registry import cue, strip_comment
from debug_agent.schemas import DiffHunk, DiffLine

Hit = tuple[DiffLine, str]

_TRAIN_ON = re.compile(r"\.train\(\s*(?:True)?\s*\)")
_EVAL_ON = re.compile(r"\.eval\(\s*\)|\.train\(\s*False\s*\)")
_EVAL_BLOCK = re.compile(
    r"torch\.no_grad\(\)|inference_mode\(|\bfor\b.*\b(val|valid|validation|test|eval)\w*(_?loader|_?data|_?set|_?dl)\b"
)
_EVAL_DEF = re.compile(r"\bdef\s+\w*(eval|valid|test|predict|infer)\w*\s*\(")
# Schedules written in epochs (stepped once per epoch) and schedules written in optimizer steps.
_PER_EPOCH = re.compile(r"\b(StepLR|MultiStepLR|ExponentialLR|ReduceLROnPlateau|PolynomialLR)\s*\(")
_PER_STEP = re.compile(r"\b(OneCycleLR|CyclicLR|get_\w+_schedule_with_warmup|get_scheduler)\s*\(")


@cue("train_mode_in_eval", scope="hunk", on=("diff",))
def train_mode_in_eval(hunk: DiffHunk) -> list[Hit]:
    """The change switches the model to train() inside an evaluation block (under no_grad, after eval(), or
    in a loop over the validation/test data): dropout and batch norm then run in training mode there."""
    lines = [ln for ln in hunk.lines if ln.kind != "-"]
    for i, ln in enumerate(lines):
        code = strip_comment(ln.text)
        if ln.kind != "+" or not _TRAIN_ON.search(code):
            continue
        after = [strip_comment(a.text) for a in lines[i + 1 :] if _indent(a.text) >= _indent(ln.text)]
        headers = _enclosing(lines[:i], _indent(ln.text))
        if any(_EVAL_BLOCK.search(h) or _EVAL_DEF.search(h) for h in headers) and not any(
            _EVAL_ON.search(a) for a in after
        ):
            return [(ln, f"adds `{code.strip()}` inside the evaluation code: evaluation runs in training mode")]
    return []


@cue("scheduler_pace_changed", scope="hunk", on=("diff",))
def scheduler_pace_changed(hunk: DiffHunk) -> list[Hit]:
    """The change replaces a schedule stepped per epoch by one written in optimizer steps (or the reverse)
    without touching where `scheduler.step()` is called: the old call site keeps the old pace."""
    removed, added = _removed_added(hunk)
    if any(re.search(r"\.step\(", strip_comment(a.text)) for a in added):
        return []  # the call site moved with the change
    was_epoch = any(_PER_EPOCH.search(strip_comment(r.text)) for r in removed)
    was_step = any(_PER_STEP.search(strip_comment(r.text)) for r in removed)
    for a in added:
        code = strip_comment(a.text)
        if was_epoch and (m := _PER_STEP.search(code)):
            return [(a, f"replaces a per-epoch schedule by `{m.group(1)}`, written in optimizer steps, while "
                        "scheduler.step() stays where it was (once per epoch)")]  # fmt: skip
        if was_step and (m := _PER_EPOCH.search(code)):
            return [(a, f"replaces a per-step schedule by `{m.group(1)}`, written in epochs, while "
                        "scheduler.step() stays where it was (every batch)")]  # fmt: skip
    return []


_LOOP = re.compile(r"^\s*(?:for|while)\b")
_ZERO_GRAD = re.compile(r"zero_grad\(|\.grad\s*=\s*None")


@cue("zero_grad_hoisted", scope="hunk", on=("diff",))
def zero_grad_hoisted(hunk: DiffHunk) -> list[Hit]:
    """The change moves `zero_grad()` from inside a loop to before it: gradients are cleared once per loop
    (per epoch), so every step in between adds its gradients to the ones before."""
    lines = hunk.lines
    for i, r in enumerate(lines):
        if r.kind != "-" or not _ZERO_GRAD.search(strip_comment(r.text)):
            continue
        loop = _enclosing_loop(lines[:i], _indent(r.text), loop=_LOOP, with_removed=True)
        if loop is None or _loop_gone(lines, loop):
            continue  # no loop, or the loop itself is deleted (a framework now calls the step per batch)
        level = _indent(loop)  # the innermost loop around the removed call
        if any(a.kind == "+" and _ZERO_GRAD.search(strip_comment(a.text)) and _indent(a.text) > level for a in lines):
            continue  # it is also cleared inside the loop (every N steps: gradient accumulation)
        for a in lines:
            if a.kind == "+" and _ZERO_GRAD.search(strip_comment(a.text)) and _indent(a.text) <= level:
                return [(a, f"moves `{strip_comment(a.text).strip()}` out of the loop `{loop.strip()}`: "
                            "gradients are cleared once, then add up over every step of that loop")]  # fmt: skip
    return []


def _loop_gone(lines: list[DiffLine], loop: str) -> bool:
    """The loop header is a deleted line that no added line restores."""
    removed = any(ln.kind == "-" and ln.text == loop for ln in lines)
    return removed and not any(ln.kind == "+" and ln.text.strip() == loop.strip() for ln in lines)


_GROUP_ADD = re.compile(r"\b(?:\w*(?:param|group)\w*\.append|add_param_group)\s*\(")
_OPTIMIZER_TALK = re.compile(r"\bparams\b|['\"]params['\"]|\boptim|parameters\(\)")


@cue("param_group_dropped", scope="hunk", on=("diff",))
def param_group_dropped(hunk: DiffHunk) -> list[Hit]:
    """The change deletes the line that hands a parameter group to the optimizer (`parameters.append(group)`,
    `add_param_group(...)`) without putting it back: those parameters are never updated."""
    if not any(_OPTIMIZER_TALK.search(strip_comment(ln.text)) for ln in hunk.lines):
        return []  # a list of something else
    removed, added = _removed_added(hunk)
    kept = {strip_comment(a.text).strip() for a in added}
    return [
        (r, f"deletes `{strip_comment(r.text).strip()}`: that parameter group no longer reaches the optimizer")
        for r in removed
        if _GROUP_ADD.search(strip_comment(r.text)) and strip_comment(r.text).strip() not in kept
    ]


# A directory listing in the order the file system gives: os.listdir / os.scandir / glob / Path.iterdir|glob.
_LISTING = re.compile(r"\b(?:os\.listdir|os\.scandir|glob\.i?glob|\.iterdir|\.r?glob)\s*\(")


@cue("unsorted_listings_paired", scope="hunk", on=("diff",))
def unsorted_listings_paired(hunk: DiffHunk) -> list[Hit]:
    """The change lists two directories (inputs and labels) without sorting them and pairs them by position:
    the file system gives no order, so item i of one list need not belong with item i of the other."""
    _, added = _removed_added(hunk)
    unsorted = [a for a in added if _LISTING.search(strip_comment(a.text)) and "sorted(" not in strip_comment(a.text)]
    names = {m.group(1) for a in unsorted if (m := re.match(r"\s*([\w.]+)\s*=", strip_comment(a.text)))}
    sorts = " ".join(strip_comment(ln.text) for ln in hunk.lines if ln.kind != "-" and ".sort(" in ln.text)
    left = [n for n in names if f"{n}.sort(" not in sorts]
    if len(unsorted) < 2 or len(left) < 2:
        return []
    return [(unsorted[1], f"lists {', '.join(sorted(left))} in file-system order, unsorted, and pairs them by index")]


_MODEL_CALL = re.compile(r"\b(?:model|net|network|module)\w*\s*\(|torch\.no_grad\(\)|inference_mode\(")


@cue("eval_helper_added_without_eval", scope="hunk", on=("diff",))
def eval_helper_added_without_eval(hunk: DiffHunk) -> list[Hit]:
    """The change adds an evaluation function that runs the model (under no_grad) but never calls eval(), and
    nothing the hunk keeps or adds switches to eval mode: dropout and batch norm evaluate in training mode."""
    lines = [ln for ln in hunk.lines if ln.kind != "-"]
    if any(_EVAL_ON.search(strip_comment(ln.text)) for ln in lines):
        return []
    for i, ln in enumerate(lines):
        if ln.kind != "+" or not _EVAL_DEF.search(strip_comment(ln.text)):
            continue
        body = []
        for b in lines[i + 1 :]:
            if strip_comment(b.text).strip() and _indent(b.text) <= _indent(ln.text):
                break
            body.append(strip_comment(b.text))
        if any(_MODEL_CALL.search(b) for b in body):
            name = strip_comment(ln.text).strip().split("(")[0].removeprefix("def ").strip()
            return [(ln, f"adds `{name}`, which runs the model without ever calling eval(): it evaluates in "
                         "training mode")]  # fmt: skip
    return []


_EVERY_N = re.compile(r"^\s*if\b.*%\s*[\w.\[\]\"']+\s*==\s*0")
_DIVIDED = re.compile(r"/\s*[\w.\[\]\"']*(?:accum|acc_steps|grad_acc|n_micro|micro)\w*|\bloss\w*\s*/=")


def _gates_step(gate: DiffLine, lines: list[DiffLine]) -> bool:
    """Whether `optimizer.step()` sits inside the block that `gate` (an `if`) opens."""
    below = lines[lines.index(gate) + 1 :]
    for ln in below:
        if strip_comment(ln.text).strip() and _indent(ln.text) <= _indent(gate.text):
            return False
        if re.search(r"\bopt\w*\.step\(|\bstep\(\s*optim", strip_comment(ln.text)):
            return True
    return False


@cue("accumulation_added_unscaled", scope="hunk", on=("diff",))
def accumulation_added_unscaled(hunk: DiffHunk) -> list[Hit]:
    """The change makes `optimizer.step()` run only every N batches (gradient accumulation) while each
    batch's loss is backpropagated undivided: the summed gradient is N times one batch's."""
    _, added = _removed_added(hunk)
    kept = [strip_comment(ln.text) for ln in hunk.lines if ln.kind != "-"]
    kept_lines = [ln for ln in hunk.lines if ln.kind != "-"]
    gate = next((a for a in added if _EVERY_N.search(strip_comment(a.text)) and _gates_step(a, kept_lines)), None)
    if gate is None or not any(".backward(" in k for k in kept):
        return []
    if any(_DIVIDED.search(k) or re.search(r"\bloss\w*\s*=.*/|/.*\.backward\(", k) for k in kept):
        return []  # the loss is divided somewhere in the change (by the count or a number)
    return [(gate, f"steps only under `{strip_comment(gate.text).strip()}` while every batch's loss is "
                   "backpropagated undivided: the accumulated gradient is N times one batch's")]  # fmt: skip


_CONTAINER = re.compile(
    r"\bself\.(\w+)\s*=\s*(?:nn\.|torch\.nn\.)?(?:ModuleList|ModuleDict|Sequential|ParameterList)\("
)


@cue("module_container_dropped", scope="hunk", on=("diff",))
def module_container_dropped(hunk: DiffHunk) -> list[Hit]:
    """The change replaces an `nn.ModuleList` (or ModuleDict, Sequential) by a plain Python list or dict:
    the sub-modules are no longer registered, so the optimizer, `.to()` and the state_dict never see them."""
    removed, added = _removed_added(hunk)
    held = {m.group(1) for r in removed if (m := _CONTAINER.search(strip_comment(r.text)))}
    for a in added:
        m = re.search(r"\bself\.(\w+)\s*=\s*[\[{]", strip_comment(a.text))
        if m and m.group(1) in held:
            what = f"self.{m.group(1)} becomes a plain Python container"
            return [(a, f"{what}: its modules are no longer registered")]
    return []


_PARAM = re.compile(r"\bself\.(\w+)\s*=\s*(?:nn\.|torch\.nn\.)?Parameter\(")
_STILL_REGISTERED = re.compile(r"Parameter\(|register_(?:buffer|parameter)|requires_grad")


@cue("parameter_unwrapped", scope="hunk", on=("diff",))
def parameter_unwrapped(hunk: DiffHunk) -> list[Hit]:
    """The change assigns a plain tensor where an `nn.Parameter` stood (`self.keys = nn.Parameter(torch.randn(L, C))`
    -> `self.keys = torch.randn(L, C).to("cuda")`): the tensor is not registered, so no optimizer updates it."""
    removed, added = _removed_added(hunk)
    held = {m.group(1) for r in removed if (m := _PARAM.search(strip_comment(r.text)))}
    for a in added:
        m = re.search(r"\bself\.(\w+)\s*=\s*(.+)", strip_comment(a.text))
        if m and m.group(1) in held and not _STILL_REGISTERED.search(m.group(2)) and "torch." in m.group(2):
            return [(a, f"self.{m.group(1)} becomes a plain tensor: no longer a registered parameter, never updated")]
    return []


_PARAMS_OF = re.compile(r"(\w+)\.(?:named_)?parameters\(\)")
_FREEZE_FILTER = re.compile(r"requires_grad|trainable|filter\(")


@cue("optimizer_params_narrowed", scope="hunk", on=("diff",))
def optimizer_params_narrowed(hunk: DiffHunk) -> list[Hit]:
    """The optimizer's constructor now names fewer modules' parameters than before
    (`list(model.parameters()) + list(head.parameters())` -> `model.parameters()`), with no freeze filter:
    the module dropped from the list is never updated."""
    removed, added = _removed_added(hunk)
    before = [r for r in removed if OPT_CTOR.search(strip_comment(r.text))]
    after = [a for a in added if OPT_CTOR.search(strip_comment(a.text))]
    if len(before) != 1 or len(after) != 1 or _FREEZE_FILTER.search(strip_comment(after[0].text)):
        return []
    old = set(_PARAMS_OF.findall(strip_comment(before[0].text)))
    new = set(_PARAMS_OF.findall(strip_comment(after[0].text)))
    gone = sorted(old - new)
    if not new or not gone:
        return []
    return [(after[0], f"the optimizer no longer gets {', '.join(f'`{g}.parameters()`' for g in gone)}: never updated")]


# A slice whose bounds are written from a time index and a horizon or window length: a target window.
_WINDOW_WORD = r"\b(?:horizon|window|lookahead|lag|seq_len|n_ahead)\w*"
_WINDOW_SLICE = re.compile(r"^\s*(\w+)\s*=\s*\w+\[([^\]]*" + _WINDOW_WORD + r"[^\]]*)\]")


@cue("target_window_moved", scope="hunk", on=("diff",))
def target_window_moved(hunk: DiffHunk) -> list[Hit]:
    """The change rewrites the bounds of a window sliced from a time index (`load[t + 1:t + 1 + horizon]` ->
    `load[t - horizon + 1:t + 1]`): the targets may now cover other time steps than the inputs are paired with."""
    removed, added = _removed_added(hunk)
    old = {m.group(1): m.group(2) for r in removed if (m := _WINDOW_SLICE.search(strip_comment(r.text)))}
    hits = []
    for a in added:
        m = _WINDOW_SLICE.search(strip_comment(a.text))
        if m and m.group(1) in old and old[m.group(1)].replace(" ", "") != m.group(2).replace(" ", ""):
            hits.append((a, f"moves the window `{m.group(1)}` from [{old[m.group(1)]}] to [{m.group(2)}]"))
    return hits


_EVAL_LOADER = re.compile(r"^\s*(\w*(?:val|test|eval|dev)\w*)\s*=")


@cue("eval_loader_shuffled", scope="hunk", on=("diff",))
def eval_loader_shuffled(hunk: DiffHunk) -> list[Hit]:
    """The change makes a validation/test loader shuffle (adds shuffle=True, or drops its shuffle=False): predictions
    gathered in loader order no longer line up with labels read in the file's order, and each run pairs them anew."""
    removed, added = _removed_added(hunk)
    was_fixed = {
        m.group(1)
        for r in removed
        if "shuffle=False" in r.text.replace(" ", "") and (m := _EVAL_LOADER.match(strip_comment(r.text)))
    }
    hits = []
    for a in added:
        code = strip_comment(a.text)
        flat = code.replace(" ", "")
        m = _EVAL_LOADER.match(code)
        if m and ("shuffle=True" in flat or (m.group(1) in was_fixed and "shuffle=False" not in flat)):
            hits.append((a, f"`{m.group(1)}` is now shuffled: its order no longer matches the labels read elsewhere"))
    return hits


_SELECTION_SET = re.compile(r"^\s*((?:\w+_)?(?:val|valid|validation|dev)(?:_\w+)?)\s*=(?!=)(.*)$")


@cue("validation_set_from_test", scope="hunk", on=("diff",))
def validation_set_from_test(hunk: DiffHunk) -> list[Hit]:
    """The change builds the validation (model-selection) set from the test data: the checkpoint is then picked on
    the same numbers it is reported with, and the reported test score is optimistic."""
    removed, added = _removed_added(hunk)
    before = {m.group(1): m.group(2) for r in removed if (m := _SELECTION_SET.match(strip_comment(r.text)))}
    hits = []
    for a in added:
        m = _SELECTION_SET.match(strip_comment(a.text))
        if m and m.group(1) in before and "test" in m.group(2).lower() and "test" not in before[m.group(1)].lower():
            hits.append((a, f"`{m.group(1)}` is now built from test data: model selection sees the test set"))
    return hits


_REDUCE_CALL = re.compile(r"\b(sum|mean|logsumexp|amax|amin|norm)\s*\(([^()]*)\)")
_AXIS_ARG = re.compile(r"^(?:(?:axis|dim)\s*=.*|-?\d+|\(\s*-?\d+(?:\s*,\s*-?\d+)*\s*,?\s*\))$")


def _reductions(code: str) -> list[tuple[tuple[str, str], bool]]:
    """((function, operand), whether an axis is given) per sum/mean call: `K.sum(x, axis=-1)`, `x.sum(-1)`."""
    out = []
    for m in _REDUCE_CALL.finditer(code):
        args = [a.strip() for a in m.group(2).split(",") if a.strip()]
        receiver = re.search(r"([\w.\])]+)\.\s*$", code[: m.start()])
        operand = args[0] if args and not _AXIS_ARG.match(args[0]) else receiver.group(1) if receiver else ""
        out.append(((m.group(1), operand), any(_AXIS_ARG.match(a) for a in args[1 if operand in args[:1] else 0 :])))
    return out


@cue("reduction_axis_dropped", scope="hunk", on=("diff",))
def reduction_axis_dropped(hunk: DiffHunk) -> list[Hit]:
    """The change drops the axis of a sum/mean over the same tensor (`K.sum(x, axis=-1, keepdims=True)` ->
    `K.sum(x)`): a per-row normaliser becomes one number over the whole batch."""
    removed, added = _removed_added(hunk)
    had_axis = {key for r in removed for key, axis in _reductions(strip_comment(r.text)) if axis and key[1]}
    return [
        (a, f"`{key[0]}` over `{key[1]}` no longer names an axis: it now reduces the whole tensor, batch included")
        for a in added
        for key, axis in _reductions(strip_comment(a.text))
        if not axis and key in had_axis
    ]


_SELECTED_LOSS = re.compile(r"\b(\w*(?:loss|criterion|loss_fct|loss_fn)\w*)\s*\((.*)\)")
_BOOL_INDEX = re.compile(r"\]\s*\[\s*[A-Za-z_]\w*\s*\]|\)\s*\[\s*[A-Za-z_]\w*\s*\]")  # x.view(-1)[active]


@cue("loss_selection_removed", scope="hunk", on=("diff",))
def loss_selection_removed(hunk: DiffHunk) -> list[Hit]:
    """The change calls the loss on every position where it selected some (`loss_fct(s.view(-1, 2)[active], ...)` ->
    `loss_fct(s.view(-1, 2), ...)`): the padded positions the selection left out now count."""
    removed, added = _removed_added(hunk)
    calls = [(ln, _SELECTED_LOSS.search(strip_comment(ln.text))) for ln in (*removed, *added)]
    selected = {m.group(1) for ln, m in calls if m and ln.kind == "-" and _BOOL_INDEX.search(m.group(2))}
    return [
        (ln, f"`{m.group(1)}` now sees every position: the selection that kept only real ones is gone")
        for ln, m in calls
        if m and ln.kind == "+" and m.group(1) in selected and not _BOOL_INDEX.search(m.group(2))
    ]


@cue("train_mode_restore_removed", scope="hunk", on=("diff",))
def train_mode_restore_removed(hunk: DiffHunk) -> list[Hit]:
    """The change deletes the call that puts the model back into training mode (`model.train(was_training)`, often
    after an evaluation): what follows trains in whatever mode the evaluation left."""
    found = _gone(hunk, r"\b(?:\w*model\w*|net\w*|self|module)\.train\(\s*(?:True|\w*training\w*|mode)?\s*\)")
    return [(ln, detail + ": training may now run in eval mode") for ln, detail in found]
