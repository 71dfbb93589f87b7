"""Built-in static cue detectors. Each returns a short detail saying what it saw, or nothing."""

from __future__ import annotations

import ast
import re

from debug_agent.cues._helpers import _first_line, _functions, _gone, _removed_added, _src
from debug_agent.cues.registry import DEF_RE, cue, strip_comment
from debug_agent.schemas import DiffHunk, DiffLine

LAYOUT_RE = re.compile(r"\.(transpose|permute|movedim|swapaxes|swapdims|mT)\b|\.T\b|\.t\(\s*\)|\brearrange\(")
RESHAPE_RE = re.compile(r"\.(reshape|view)\s*\(")
FORWARD_NAMES = {"forward", "__call__"}


# --- layout ---------------------------------------------------------------------------------------
@cue("reshape_replaces_permute", scope="hunk", on=("diff",))
def reshape_replaces_permute(hunk: DiffHunk) -> list[tuple[DiffLine, str]]:
    """A hunk removes a transpose/permute and adds a reshape/view in its place."""
    removed, added = _removed_added(hunk)
    gone = [r for r in removed if LAYOUT_RE.search(strip_comment(r.text))]
    if not gone:
        return []
    kept = {m.group(0) for a in added for m in [LAYOUT_RE.search(strip_comment(a.text))] if m}
    out = []
    for a in added:
        code = strip_comment(a.text)
        if RESHAPE_RE.search(code) and not (LAYOUT_RE.search(code) and kept):
            out.append((a, f"replaces `{gone[0].text.strip()}` with `{a.text.strip()}`"))
    return out


_UNPACK_RE = re.compile(r"^\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)+)\s*=\s*(\w+)\.(?:shape|size\(\))")
_CALL_ARGS_RE = re.compile(r"(\w+)\.(?:reshape|view)\s*\(([^()]*)\)")


@cue("view_permutes_shape", scope="file", on=("source",))
def view_permutes_shape(path: str, text: str) -> list[tuple[int, str]]:
    """reshape/view of a tensor into its own unpacked dimensions in a different order (e.g. B,T,C -> T,B,C)."""
    out = []
    dims: dict[str, list[str]] = {}
    for no, raw in enumerate(text.splitlines(), start=1):
        code = strip_comment(raw)
        if DEF_RE.match(code):
            dims = {}
        if m := _UNPACK_RE.match(code):
            dims[m.group(2)] = [n.strip() for n in m.group(1).split(",")]
        for m in _CALL_ARGS_RE.finditer(code):
            args = [a.strip() for a in m.group(2).split(",") if a.strip()]
            for names in dims.values():
                if len(args) == len(names) and sorted(args) == sorted(names) and args != names:
                    out.append(
                        (
                            no,
                            f"reshapes ({', '.join(names)}) into ({', '.join(args)}): "
                            "axes reordered by reshape, not permute",
                        )
                    )
    return out


# --- shapes ---------------------------------------------------------------------------------------


@cue("bare_squeeze")
def bare_squeeze(code: str, func: str | None) -> str | None:
    """A bare squeeze() that drops every size-1 axis (the batch axis too when the batch has one example)."""
    return "bare `squeeze()` drops every size-1 axis" if re.search(r"\.squeeze\(\s*\)", code) else None


@cue("squeeze_removed", scope="hunk", on=("diff",))
def squeeze_removed(hunk: DiffHunk) -> list[tuple[DiffLine, str]]:
    """The change deletes a squeeze/unsqueeze/flatten, so two tensors may no longer share a shape."""
    found = _gone(hunk, r"\.(squeeze|unsqueeze)\(\s*-?\d|\.view\(\s*-1\s*\)|\.flatten\(|\.reshape\(\s*-1\s*\)")
    removed, added = _removed_added(hunk)
    return [(added[0] if added else ln, detail + " (shapes downstream may now differ)") for ln, detail in found]


@cue("target_reshape", on=("diff",))
def target_reshape(code: str, func: str | None) -> str | None:
    """A target/label reshaped to a column (N,1), the usual partner of an (N,) prediction."""
    if re.search(
        r"\b(y|target\w*|label\w*)\b.*\.(view|reshape)\(\s*-1\s*,\s*1\s*\)|\b(y|target\w*|label\w*)\w*\.unsqueeze\(\s*-?1\s*\)",
        code,
    ):
        return "turns targets into an (N, 1) column"
    return None


# --- losses and numerics --------------------------------------------------------------------------

_SOFTMAX_CALL = re.compile(
    r"(?:\b(?:F|torch|nn\.functional)\.|\.)(log_softmax|softmax|softmin)\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)"
)


@cue("softmax_dim0")
def softmax_dim0(code: str, func: str | None) -> str | None:
    """softmax/log_softmax over dim 0 (the batch axis) or with no dim at all."""
    if re.search(r"nn\.(Log)?Softmax\(\s*(dim\s*=\s*)?0\s*\)|nn\.(Log)?Softmax\(\s*\)", code):
        return "nn.Softmax over dim 0 or with no dim"
    for m in _SOFTMAX_CALL.finditer(code):
        fn, args = m.group(1), [a.strip() for a in m.group(2).split(",") if a.strip()]
        is_method = code[m.start()] == "." and not code[: m.start()].endswith(("F", "torch", "functional"))
        if any(re.fullmatch(r"(dim\s*=\s*)?0", a) for a in (args if is_method else args[1:])):
            return f"{fn} over dim 0: normalises across the batch"
        if not any(a.startswith("dim") for a in args) and len(args) == (0 if is_method else 1):
            return f"{fn} without dim: torch picks the axis implicitly"
    return None


@cue("activation_into_logit_loss")
def activation_into_logit_loss(code: str, func: str | None) -> str | None:
    """Probabilities (softmax/sigmoid) fed to a loss that expects logits, on one line."""
    if re.search(r"(cross_entropy|CrossEntropyLoss|criterion|loss_fn)\w*\(.*softmax\(", code):
        return "softmax output passed to a cross-entropy loss that applies log_softmax itself"
    if re.search(r"(binary_cross_entropy_with_logits|BCEWithLogitsLoss|criterion|loss_fn)\w*\(.*sigmoid\(", code):
        return "sigmoid output passed to a loss that applies sigmoid itself"
    return None


@cue("unstable_math")
def unstable_math(code: str, func: str | None) -> str | None:
    """log of softmax/sigmoid, log of a sum of exp, or log/division without an epsilon."""
    if re.search(r"\blog\(\s*(torch\.|F\.)?(softmax|sigmoid)\(|(softmax|sigmoid)\([^)]*\)\.log\(\)", code):
        return "log of softmax/sigmoid underflows to log(0); use log_softmax/logsigmoid"
    if re.search(r"\blog\(\s*(?:torch\.)?sum\(\s*(?:torch\.)?exp\(|\.exp\(\)\.sum\([^()]*\)\.log\(\)", code):
        return "log of a sum of exp overflows (inf) or underflows (log 0); use torch.logsumexp"
    if re.search(r"torch\.log\((?![^)]*(eps|clamp|\+|1e-))", code):
        return "log without an epsilon or clamp"
    return None


@cue("ignore_index_edit", on=("diff",))
def ignore_index_edit(code: str, func: str | None) -> str | None:
    """The change touches ignore_index / -100 label masking."""
    return "changes label masking (ignore_index / -100)" if re.search(r"ignore_index|-100\b", code) else None


@cue("summed_losses")
def summed_losses(code: str, func: str | None) -> str | None:
    """A total loss adding separate loss terms (check their scales)."""
    if re.search(r"\bloss\w*\s*=\s*[\w.*\s]*loss\w*\s*\+\s*[\w.*\s]*loss", code, re.I):
        return "adds separate loss terms"
    return None


@cue("sum_reduction", on=("diff",))
def sum_reduction(code: str, func: str | None) -> str | None:
    """A loss switched to reduction='sum': its scale now grows with the number of elements."""
    if re.search(r"reduction\s*=\s*['\"]sum['\"]", code):
        return "sums instead of averaging: this loss term now scales with the number of elements"
    return None


# --- graph, modes, state --------------------------------------------------------------------------


@cue("detach_in_forward")
def detach_in_forward(code: str, func: str | None) -> str | None:
    """detach()/.data/.item()/.numpy()/no_grad on the forward path."""
    if func not in FORWARD_NAMES:
        return None
    m = re.search(
        r"\.detach\(\)|\.data\b|\.item\(\)|\.numpy\(\)|\.tolist\(\)|torch\.no_grad\(\)|inference_mode\(\)", code
    )
    return f"`{m.group(0)}` inside {func}() cuts the gradient path" if m else None


@cue("state_in_forward")
def state_in_forward(code: str, func: str | None) -> str | None:
    """forward() writes to an attribute or buffer, carrying state into the next call."""
    if func not in FORWARD_NAMES:
        return None
    m = re.search(r"\bself\.(\w+)\s*(\+|-|\*)?=(?!=)|\bself\.(\w+)\.(copy_|append|add_|mul_|fill_)\(", code)
    if m and (m.group(1) or m.group(3)) not in {"training"}:
        return f"forward() writes self.{m.group(1) or m.group(3)}"
    return None


@cue("eval_without_eval_mode", scope="file", on=("source",))
def eval_without_eval_mode(path: str, text: str) -> list[tuple[int, str]]:
    """An evaluation function that never calls model.eval()."""
    out = []
    for fn in _functions(text):
        if not re.search(r"eval|valid|test|predict|infer", fn.name) or fn.name == "make_target":
            continue
        body = _src(text, fn)
        if re.search(r"\bmodel\w*\s*\(|\bnet\s*\(|no_grad", body) and not re.search(
            r"\.eval\(\)|\.train\(\s*False\s*\)", body
        ):
            out.append((fn.lineno, f"`{fn.name}` evaluates without calling model.eval()"))
    return out


@cue("eval_without_train", scope="file", on=("source",))
def eval_without_train(path: str, text: str) -> list[tuple[int, str]]:
    """A training function that switches to eval() and never back to train()."""
    out = []
    for fn in _functions(text):
        body = _src(text, fn)
        if ".backward(" in body and re.search(r"\.eval\(\)", body) and not re.search(r"\.train\(\s*(True)?\s*\)", body):
            out.append((_first_line(text, fn, r"\.eval\(\)"), f"`{fn.name}` calls eval() but never train()"))
    return out


@cue("batchnorm_batch_stats")
def batchnorm_batch_stats(code: str, func: str | None) -> str | None:
    """Batch norm told to use batch statistics always (track_running_stats=False or training=True)."""
    if re.search(r"track_running_stats\s*=\s*False|batch_norm\(.*training\s*=\s*True", code):
        return "batch norm normalises with the current batch's statistics, even at inference"
    return None


def _backward_methods(text: str, base: re.Pattern[str]) -> list[tuple[int, str]]:
    """(line, class name) of each `backward` method defined in a class with a base matching `base`."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    return [
        (item.lineno, node.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef) and any(base.search(ast.unparse(b)) for b in node.bases)
        for item in node.body
        if isinstance(item, ast.FunctionDef) and item.name == "backward"
    ]


@cue("custom_backward", scope="file", on=("source",))
def custom_backward(path: str, text: str) -> list[tuple[int, str]]:
    """A custom torch.autograd.Function with a hand-written backward."""
    return [(no, f"hand-written backward in {name}") for no, name in _backward_methods(text, re.compile("Function"))]


# A plain nn.Module base only: a LightningModule's `backward` is a training hook the trainer does call.
_MODULE_BASE = re.compile(r"^(?:torch\.)?(?:nn\.)?Module$")


@cue("module_backward", scope="file", on=("source",))
def module_backward(path: str, text: str) -> list[tuple[int, str]]:
    """An nn.Module subclass with its own `backward` method, which autograd never calls."""
    return [
        (no, f"nn.Module {name} defines backward(): autograd differentiates forward")
        for no, name in _backward_methods(text, _MODULE_BASE)
    ]


@cue("saturating_stack", scope="file", on=("source",))
def saturating_stack(path: str, text: str) -> list[tuple[int, str]]:
    """Four or more sigmoid/tanh activations stacked in one file's model."""
    rx = re.compile(r"nn\.(Sigmoid|Tanh)\(|torch\.(sigmoid|tanh)\(")
    hits = [no for no, raw in enumerate(text.splitlines(), start=1) for _ in rx.finditer(strip_comment(raw))]
    # A loop that builds layers: `for _ in range(N)` (N >= 4) with an activation in its next few lines.
    # A training loop elsewhere in the file (`for step in range(200)`) says nothing about depth.
    lines = text.splitlines()
    loops = [
        no
        for no, raw in enumerate(lines, start=1)
        if (m := re.search(r"for\s+\w+\s+in\s+range\(\s*(\d+)", strip_comment(raw))) and int(m.group(1)) >= 4
    ]
    built_in_loop = any(0 < h - no <= 4 for h in hits for no in loops)
    if len(hits) >= 4 or built_in_loop:
        return [(hits[0], "deep stack of saturating activations")]
    return []


@cue("init_edit", on=("diff",))
def init_edit(code: str, func: str | None) -> str | None:
    """The change touches weight or bias initialisation."""
    m = re.search(
        r"nn\.init\.\w+|\.(weight|bias)\.data\b|\.(fill_|normal_|uniform_|zero_|constant_)\(|bias\s*=\s*-", code
    )
    return f"changes initialisation (`{m.group(0)}`)" if m else None


_LOSS_MASK = re.compile(r"\b\w*(?:loss|label|target|token)\w*mask\w*\b|\bmask\w*\s*=.*\b(?:labels?|targets?)\b")


@cue("mask_edit", on=("diff",))
def mask_edit(code: str, func: str | None) -> str | None:
    """The change touches an attention or causal mask."""
    m = re.search(r"\b(?!masked\b)\w*mask\w*\b|triu|tril|is_causal", code)  # `masked`: a tensor, not a mask
    return f"changes the attention mask (`{m.group(0)}`)" if m and not _LOSS_MASK.search(code) else None


@cue("loss_mask_edit", on=("diff",))
def loss_mask_edit(code: str, func: str | None) -> str | None:
    """The change touches the mask that decides which positions the loss counts."""
    m = _LOSS_MASK.search(code)
    return f"changes which positions the loss counts (`{m.group(0)}`)" if m else None


# A Linear sized by the number of classes (or the vocabulary) followed by a rectifier, or a rectifier around
# the head's call: negative logits are clamped to 0, and once every logit of an input is clamped the softmax is
# uniform and no gradient flows back through the ReLU.
_OUT_DIM = r"\b(?:n_?classes|num_classes|n_class|num_labels|n_labels|n_out\w*|num_outputs|vocab_size|n_vocab)\b"
_RECTIFIED_OUTPUT = re.compile(
    rf"Linear\([^()]*{_OUT_DIM}[^()]*\)\s*,\s*(?:nn\.)?ReLU6?\("
    r"|\brelu6?\(\s*self\.(?:classifier|head|out|output|fc_out|logits?)\w*\("
)


@cue("output_rectified")
def output_rectified(code: str, func: str | None) -> str | None:
    """A ReLU applied to the class-score (logit) layer: negative logits are clamped to 0 and stop learning."""
    m = _RECTIFIED_OUTPUT.search(code)
    return f"rectifies the logits (`{m.group(0)}`): negative class scores are clamped to 0" if m else None
