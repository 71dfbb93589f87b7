"""padding_audit: in a padded batch, do real positions read the padding, and does the loss train on it?

Padding is found from the batch itself, never from the mask's polarity alone: a 0/1 input shaped like
the token ids (an attention mask) whose positions of one value hold a single token id in a run at the
end (or start) of each row. Two measurements on a copy in eval mode:
- attention: the padded tokens are replaced by other ids (the mask unchanged); outputs at real
  positions (or a padded row's pooled output) must not move. They move when the mask is inverted,
  not passed, or of the wrong polarity for the model.
- loss: the label the loss pairs with each output position is read from its gradient on all-zero
  logits (see _pairing); a loss that trains positions to predict the padding id counts the padding
  (pad labels not set to ignore_index). For a tagger (outputs over tags, not tokens), any label the loss
  gives a padded position counts it.
May import: schemas, the probe registry and helpers.
"""

from __future__ import annotations

from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field
from torch.overrides import TorchFunctionMode

from debug_agent.schemas import Finding, ProbeResult, ProbeStatus, Target

from ._common import call_flat, clone_batch, copy_model, main_tensor
from ._pairing import logits_of, loss_denominator, paired_labels, paired_labels_inside
from .registry import ProbeContext, not_applicable, probe


class PaddingAuditOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tol: float = Field(default=1e-5, gt=0, lt=1, description="relative output change that counts as reading padding")


def _at_row_ends(sel: torch.Tensor) -> bool:
    """Every row's selected positions form one run touching its start or its end (or the row has none)."""
    for row in sel:
        idx = torch.nonzero(row).flatten()
        if len(idx) == 0:
            continue
        first, last, n = int(idx[0]), int(idx[-1]), len(idx)
        if last - first + 1 != n or (first != 0 and last != len(row) - 1):
            return False
    return True


def find_padding(inputs: tuple[Any, ...]) -> tuple[int, int, torch.Tensor, int, int] | None:
    """(token input index, mask input index, pad positions (B, T) bool, pad id, mask value at pads) or None."""
    tokens = [
        i for i, x in enumerate(inputs) if isinstance(x, torch.Tensor) and not x.is_floating_point() and x.dim() == 2
    ]
    for ti in tokens:
        ids = inputs[ti]
        for mi, m in enumerate(inputs):
            if mi == ti or not isinstance(m, torch.Tensor) or m.shape != ids.shape or m.is_floating_point():
                continue
            values = set(torch.unique(m.long()).tolist())
            if values != {0, 1}:
                continue
            for v in (0, 1):
                sel = m.long() == v
                pad_ids = torch.unique(ids[sel])
                if len(pad_ids) == 1 and _at_row_ends(sel) and not bool(sel.all(1).any()):
                    return ti, mi, sel, int(pad_ids[0]), v
    for ti in tokens:
        implicit = _trailing_padding(inputs[ti])
        if implicit is not None:
            return ti, _blank_mask(inputs, ti), implicit[0], implicit[1], -1
    return None


def _blank_mask(inputs: tuple[Any, ...], ti: int) -> int:
    """The index of a mask-shaped input that marks nothing (all 1s or all 0s beside padded ids), else -1."""
    ids = inputs[ti]
    for mi, m in enumerate(inputs):
        if mi == ti or not isinstance(m, torch.Tensor) or m.shape != ids.shape or m.is_floating_point():
            continue
        if set(torch.unique(m.long()).tolist()) in ({0}, {1}):
            return mi
    return -1


def _trailing_padding(ids: torch.Tensor) -> tuple[torch.Tensor, int] | None:
    """Padding with no mask input: one id filling the end of most rows, in runs of several lengths, and
    nowhere else. (pad positions (B, T), pad id) or None."""
    vals, counts = ids[:, -1].unique(return_counts=True)
    pad_id = int(vals[counts.argmax()])
    is_pad = ids == pad_id
    run = is_pad.flip(1).long().cumprod(1).flip(1).bool()  # (B, T): the trailing run of pad_id in each row
    rows = run.any(1)
    if float(rows.float().mean()) < 0.5 or run.sum(1)[rows].unique().numel() < 2:
        return None
    if bool((is_pad & ~run).any()) or bool(run.all(1).any()):
        return None
    return run, pad_id


def _attention(
    target: Target,
    model: torch.nn.Module,
    inputs: tuple[Any, ...],
    pad: tuple[int, torch.Tensor],
    tol: float,
    seed: int,
) -> tuple[str, dict[str, Any], list[Finding]]:
    """Replace the padded tokens by other ids; do outputs at real positions (or pooled rows) move?"""
    ti, sel = pad
    ids = inputs[ti]
    gen = torch.Generator().manual_seed(seed)
    vocab = max(int(ids.max()) + 1, 2)
    moved_ids = ids.clone()
    noise = torch.randint(1, vocab, ids.shape, generator=gen).to(ids.device)
    moved_ids[sel] = (ids[sel] + noise[sel]) % vocab
    moved = tuple(moved_ids if i == ti else x for i, x in enumerate(inputs))
    with torch.no_grad():
        y0 = main_tensor(call_flat(target, model, inputs)).float()
        y1 = main_tensor(call_flat(target, model, moved)).float()
    B, T = sel.shape
    rows = sel.any(1)
    diff = (y1 - y0).abs()
    scale = float(y0.abs().max()) + 1e-12
    if diff.dim() >= 2 and tuple(diff.shape[:2]) == (B, T):
        per = diff.reshape(B, T, -1).amax(-1)
        real = ~sel.to(per.device) & rows.to(per.device)[:, None]
        change = float(per[real].max()) if bool(real.any()) else 0.0
        unit = "real positions of padded rows"
    else:
        change = float(diff.reshape(B, -1)[rows.to(diff.device)].amax()) if bool(rows.any()) else 0.0
        unit = "padded rows' outputs"
    meas = {"padded_rows": int(rows.sum()), "padded_positions": int(sel.sum()), "real_output_change": change / scale}
    if change <= tol * scale:
        return "padding_masked", meas, []
    text = (
        f"changing only the padded tokens moved the {unit} by {change / scale:.3g} (relative): real positions read "
        "the padding (attention mask inverted, not passed, or of the wrong polarity for this model)"
    )
    return "padding_attended", meas, [Finding(text=text, data={"relative_change": round(change / scale, 6)})]


def _loss(
    target: Target, model: torch.nn.Module, inputs: tuple[Any, ...], pad: tuple[torch.Tensor, int, int]
) -> tuple[str | None, dict[str, Any], list[Finding]]:
    """Does the loss train output positions to predict the padding id?"""
    sel, pad_id, vocab_max = pad
    with torch.no_grad():
        out = call_flat(target, model, inputs)
    logits = logits_of(out)
    if not isinstance(logits, torch.Tensor) or logits.dim() != 3 or tuple(logits.shape[:2]) != tuple(sel.shape):
        return None, {"loss_check": "the output is not (batch, time, vocabulary) logits"}, []
    labels = paired_labels(target, out, logits)
    if labels is None:
        labels = paired_labels_inside(target, model, tuple(logits.shape))
    if labels is None:
        return None, {"loss_check": "the loss does not behave like cross-entropy over the last axis"}, []
    if logits.shape[-1] <= vocab_max:
        # Tags, not tokens (a tagger's (B, T, tags)): the pad id means nothing there, but a padded position
        # the loss gives any label is trained on, whatever tag it is told to predict.
        trained = int(((labels >= 0) & sel.to(labels.device)).sum())
        what = "a tag"
    else:
        # A position counts when it is trained on the pad id and is padded or next to the padding (a shifting
        # loss pairs the last real position with the first pad); elsewhere the id may be a real label.
        near = sel.clone()
        near[:, 1:] |= sel[:, :-1]
        near[:, :-1] |= sel[:, 1:]
        trained = int(((labels == pad_id) & near.to(labels.device)).sum())
        what = f"the padding token (id {pad_id})"
    meas = {"positions_trained_on_pad_id": trained, "labelled_positions": int((labels >= 0).sum())}
    if not trained:
        return _mean_over_padding(target, out, logits, sel, meas)
    text = (
        f"the loss trains {trained} padded output position(s) to predict {what}: padded labels are not set to "
        "ignore_index (-100) or masked out of the loss"
    )
    return "padding_counted", meas, [Finding(text=text, data={"positions": trained, "pad_id": pad_id})]


def _mean_over_padding(
    target: Target, out: Any, logits: torch.Tensor, sel: torch.Tensor, meas: dict[str, Any]
) -> tuple[str, dict[str, Any], list[Finding]]:
    """Padding gets no gradient; does the mean still divide by the padded positions (a zero class weight or
    a mask multiplied in, then a sum over all positions divided by B*T)? The loss then depends on how much
    padding a batch has."""
    real, padded = meas["labelled_positions"], int(sel.sum())
    n = loss_denominator(target, out, logits)
    if n is None or real == 0 or n < 1.2 * real or n < real + 0.5 * padded:
        return "padding_ignored_in_loss", meas, []
    meas["loss_divides_by"] = round(n, 1)
    text = (
        f"padded positions get no gradient, but the loss divides by {n:.0f} positions while only {real} are "
        f"trained: the mean counts the {padded} padded ones, so the loss depends on how much padding a batch has"
    )
    return "padding_in_mean", meas, [Finding(text=text, data={"divides_by": round(n, 1), "trained": real})]


class _AttentionSeen(TorchFunctionMode):
    """Notes whether forward runs an attention: a softmax over the key axis, SDPA or multi-head attention."""

    def __init__(self, length: int) -> None:
        super().__init__()
        self.length, self.seen = length, False

    def __torch_function__(self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: Any = None) -> Any:
        name = getattr(func, "__name__", "")
        if name in ("scaled_dot_product_attention", "multi_head_attention_forward"):
            self.seen = True
        elif name == "softmax" and args and isinstance(args[0], torch.Tensor) and args[0].shape[-1] == self.length:
            self.seen = True
        return func(*args, **(kwargs or {}))


def _trimmed_padding(
    target: Target,
    model: torch.nn.Module,
    inputs: tuple[Any, ...],
    pad: tuple[int, torch.Tensor],
    tol: float,
    seed: int,
) -> tuple[str | None, dict[str, Any], list[Finding]]:
    """No mask input, so an attention model can only hide the padding by reading the ids. Two changes to the
    padded rows: drop the trailing columns that every one of them pads (real outputs must stay put), and
    redraw their real tokens (outputs must move: a model that reads only its padding ignores them)."""
    ti, sel = pad
    rows = sel.any(1)  # (B,) the padded rows; unpadded rows have no column to spare
    cut = int(sel[rows].sum(1).min())
    B, T = sel.shape
    keep = [x[rows][:, : T - cut] if x.dim() >= 2 and x.shape[:2] == (B, T) else x[rows] for x in inputs]
    seen = _AttentionSeen(T)
    with torch.no_grad(), seen:
        y0 = main_tensor(call_flat(target, model, inputs)).float()
    if not seen.seen:
        return None, {"attention_check": "no mask input and no attention over the tokens: not audited"}, []
    ids, pad_id = inputs[ti], int(inputs[ti][sel][0])
    vocab = max(int(ids.max()) + 1, 2)  # ids seen in the batch only: never an id the embedding lacks
    redrawn = ids.clone()
    gen = torch.Generator().manual_seed(seed)
    noise = torch.randint(1, vocab, ids.shape, generator=gen).to(ids.device)
    redrawn[~sel] = (ids[~sel] + noise[~sel]) % vocab
    redrawn[~sel & (redrawn == pad_id)] = (pad_id + 1) % vocab  # never the pad id
    with torch.no_grad():
        y2 = main_tensor(call_flat(target, model, tuple(redrawn if i == ti else x for i, x in enumerate(inputs))))
        try:
            y1: torch.Tensor | None = main_tensor(call_flat(target, model, keep)).float()
        except (RuntimeError, ValueError, IndexError):
            y1 = None  # a model built for one length (fixed position table): only the redraw check applies
    y0, y2 = y0[rows.to(y0.device)], y2.float()[rows.to(y0.device)]
    scale = float(y0.abs().max()) + 1e-12
    real_move = float((y2 - y0).abs().max()) / scale
    if y1 is not None and y0.dim() >= 2 and y0.shape[1] == T:  # per-position outputs: the real positions kept
        real = ~sel[rows][:, : T - cut].to(y0.device)
        y0 = y0[:, : T - cut][real]
        y1 = y1[real] if y1.dim() >= 2 and y1.shape[1] == T - cut else y1
    change = 0.0 if y1 is None else float((y1 - y0).abs().max()) / scale if y1.shape == y0.shape else float("inf")
    dropped = cut if y1 is not None else 0
    meas: dict[str, Any] = {"padded_rows": int(rows.sum()), "columns_dropped": dropped, "real_output_change": change}
    meas["real_token_effect"] = real_move
    if change > tol:
        text = (
            f"dropping {cut} trailing column(s) of padding moved the padded rows' outputs by {change:.3g} "
            "(relative): real positions attend to the padding (no mask built from the ids, or an inverted one)"
        )
        return "padding_attended", meas, [Finding(text=text, data={"relative_change": round(change, 6)})]
    if real_move <= tol:
        text = (
            "redrawing every real token left the padded rows' outputs unchanged: they read only their padding "
            "(a mask built from the ids with the wrong polarity attends to the pads instead of the tokens)"
        )
        return "padding_attended", meas, [Finding(text=text, data={"real_token_effect": real_move})]
    if y1 is None:
        meas["attention_check"] = "the model takes one sequence length only: dropping padding could not be tried"
        return None, meas, []
    return "padding_masked", meas, []


@probe(
    headline=("real_output_change", "positions_trained_on_pad_id"),
    outcomes=(
        "padding_masked",
        "padding_attended",
        "padding_ignored_in_loss",
        "padding_counted",
        "padding_in_mean",
    ),
    cost=3.0,
    options=PaddingAuditOptions,
    per_row=True,
)
def padding_audit(target: Target, ctx: ProbeContext, options: PaddingAuditOptions) -> ProbeResult:
    """Padded batches: real positions must not read the padding, and the loss must not train on it.

    Finds the padding from the batch (a 0/1 mask input whose positions of one value hold one token id in a run
    at the row ends). Replaces the padded tokens by other ids and checks that outputs at real positions (or
    pooled outputs of padded rows) stay put; with a loss_fn, reads the label the loss pairs with each position
    from its gradient on zero logits and counts positions trained to predict the padding id, or a mean that
    gives padding no gradient but still divides by it (the count a loss divides by is read from the same
    gradient). Without a mask input, padding is one id filling the row ends in runs of several lengths and
    nowhere else; a mask-shaped input that marks nothing at all (all 1s) gets the attention check; with no mask
    input at all, a model that runs attention over the tokens must give the padded rows the same outputs once
    the padding every one of them shares is dropped (a mask built from the ids keeps them; a missing or inverted
    one does not). Not applicable without padded rows.
    """
    inputs = tuple(clone_batch(target.inputs))
    found = find_padding(inputs)
    if found is None:
        return not_applicable("padding_audit", "no padded rows (a 0/1 mask input marking a run of one pad id)")
    ti, mi, sel, pad_id, value = found
    real_ids = inputs[ti][~sel]
    if bool((real_ids == pad_id).any()):
        return ProbeResult(
            name="padding_audit",
            status="inconclusive",
            summary=f"the padding id {pad_id} also occurs among real tokens; padding cannot be told apart",
        )
    model = copy_model(target).eval()
    if mi < 0:  # no mask input: any mask is built from the ids, so the padding is shortened instead
        tag, meas, findings = _trimmed_padding(target, model, inputs, (ti, sel), options.tol, ctx.seed)
        tags = [tag] if tag else []
    else:
        tag, meas, findings = _attention(target, model, inputs, (ti, sel), options.tol, ctx.seed)
        tags = [tag]
        if value < 0 and findings:  # a mask input that marks none of the padded positions
            findings[0] = Finding(
                text=f"the mask input marks no position as padding (it is all {int(inputs[mi].flatten()[0])}), "
                + findings[0].text,
                data=findings[0].data,
            )
    meas.update(pad_id=pad_id, mask_value_at_padding=value)
    if target.loss_fn is not None:
        ltag, lmeas, lfind = _loss(target, model, inputs, (sel, pad_id, int(inputs[ti].max())))
        meas.update(lmeas)
        findings += lfind
        tags += [ltag] if ltag else []
    if not tags:
        why = meas.get("loss_check", "no loss_fn")
        return not_applicable("padding_audit", f"padding without a mask input, and {why}")
    bad = [t for t in tags if t in ("padding_attended", "padding_counted", "padding_in_mean")]
    status: ProbeStatus = "failed" if bad else "passed"
    summary = f"{int(sel.any(1).sum())} padded row(s): " + "; ".join(_parts(tags, meas))
    return ProbeResult(
        name="padding_audit", status=status, outcomes=tags, findings=findings, measurements=meas, summary=summary
    )


def _parts(tags: list[str], meas: dict[str, Any]) -> list[str]:
    """What the summary says about attention to the padding and about the loss."""
    parts = [
        "real positions read the padding"
        if "padding_attended" in tags
        else "real positions ignore the padding"
        if "padding_masked" in tags
        else "no mask input (attention not audited)",
    ]
    if "padding_counted" in tags:
        parts.append(f"the loss trains {meas['positions_trained_on_pad_id']} padded position(s)")
    elif "padding_in_mean" in tags:
        parts.append(f"the loss averages over {meas['loss_divides_by']:.0f} positions, padding included")
    elif "padding_ignored_in_loss" in tags:
        parts.append("the loss ignores padded positions")
    return parts
