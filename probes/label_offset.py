"""label_offset: which input token does the loss train each output position to predict?

A causal language model must predict the next token: the loss pairs output position t with input
token t+1. Labels shifted in the collate function and again in the model pair t with t+2; labels
passed unshifted to a loss that does not shift pair t with t itself, so the model learns to copy
its input and the loss falls far below what the data allows. The pairing is read off the loss
itself: for cross-entropy on all-zero logits the gradient at each position is (1/V - onehot(label)),
so its most negative entry names the label the loss uses there.

May import: schemas, the probe registry and helpers.
"""

from __future__ import annotations

import math
from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field

from debug_agent.schemas import Finding, ProbeResult, ProbeStatus, Target

from ._common import as_float, call_flat, clone_batch, copy_model, make_optimizer, train_step
from ._pairing import logits_of, paired_labels, paired_labels_inside
from .registry import ProbeContext, not_applicable, probe

OFFSETS = (-2, -1, 0, 1, 2)


class LabelOffsetOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"x-scale-option": "steps", "x-scale-min": 0})

    match: float = Field(default=0.9, gt=0, le=1, description="fraction of labelled positions that must match")
    steps: int = Field(default=20, ge=0, le=1000, description="training steps for the loss-vs-entropy check (0: skip)")
    below: float = Field(
        default=0.85, gt=0, lt=1, description="a loss on renamed tokens under this fraction of the label entropy"
    )


def _match(labels: torch.Tensor, tokens: torch.Tensor, k: int) -> tuple[float, int]:
    T = tokens.shape[1]
    lo, hi = max(0, -k), min(T, T - k)
    if hi <= lo:
        return 0.0, 0
    lab, src = labels[:, lo:hi], tokens[:, lo + k : hi + k]
    keep = lab >= 0
    n = int(keep.sum())
    return (float((lab[keep] == src[keep]).double().mean()) if n else 0.0), n


def _entropy(labels: torch.Tensor) -> float:
    counts = torch.bincount(labels[labels >= 0].reshape(-1)).double()
    p = counts[counts > 0] / counts.sum()
    return float(-(p * p.log()).sum())


@probe(
    headline=("offset", "loss_on_renamed_tokens"),
    outcomes=(
        "labels_next_token",
        "labels_copy_input",
        "labels_shifted_twice",
        "labels_not_inputs",
        "labels_reconstruct_input",
        "loss_below_label_entropy",
    ),
    requires=("model", "batch", "loss_fn"),
    cost=21.0,
    options=LabelOffsetOptions,
)
def label_offset(target: Target, ctx: ProbeContext, options: LabelOffsetOptions) -> ProbeResult:
    """Token models: at which offset k do the loss's labels equal the inputs (t -> t+k), and does the loss fall too far?

    Reads the label the loss pairs with each output position from the gradient of the loss on
    all-zero logits, then looks for label/input identity at offsets -2..2. Offset +1 is next-token
    prediction; 0 or below means the label is the input itself (labels not shifted for a loss that
    does not shift, or shifted the wrong way); +2 means labels shifted twice. With `steps` > 0 it
    also trains a copy a few steps and evaluates it on the batch with every token id renamed: no model
    that learned the data can beat the labels' entropy on renamed sequences, a model that reads the
    answer from its input can. Needs integer token inputs shaped (batch, time) and a
    cross-entropy-like loss over the last axis of (batch, time, vocabulary) logits. When the model
    computes the loss itself from labels among its inputs, the logits are replaced where they are made.
    """
    tokens = target.inputs[0]
    if tokens.is_floating_point() or tokens.dim() != 2 or tokens.shape[1] < 3:
        return not_applicable("label_offset", "needs integer token inputs shaped (batch, time)")
    model = copy_model(target).eval()
    with torch.no_grad():
        out = call_flat(target, model, clone_batch(target.inputs))
    logits = logits_of(out)
    if not isinstance(logits, torch.Tensor) or logits.dim() != 3 or tuple(logits.shape[:2]) != tuple(tokens.shape):
        return not_applicable("label_offset", "the model output is not (batch, time, vocabulary) logits")
    labels = paired_labels(target, out, logits)
    if labels is None:  # a loss computed inside the model from labels among the inputs
        labels = paired_labels_inside(target, model, tuple(logits.shape))
    if labels is None:
        return ProbeResult(
            name="label_offset",
            status="inconclusive",
            summary="the loss does not behave like cross-entropy over the last axis; the label pairing cannot be read",
        )
    tokens = tokens.detach().cpu()
    scores = {k: _match(labels, tokens, k) for k in OFFSETS}
    meas: dict[str, Any] = {
        "labelled_positions": int((labels >= 0).sum()),
        "match_by_offset": {str(k): round(v[0], 4) for k, v in scores.items()},
    }
    best = max(OFFSETS, key=lambda k: (scores[k][0], -abs(k - 1)))
    frac, n = scores[best]
    tags: list[str] = []
    findings: list[Finding] = []
    if frac < options.match or n < 4:
        tags.append("labels_not_inputs")
    elif best <= 0 and _reads_later_tokens(target, model, logits):
        # Every position sees the whole sequence: rebuilding the input is the task (an autoencoder).
        meas["offset"] = best
        tags.append("labels_reconstruct_input")
    else:
        meas["offset"] = best
        tags.append(_offset_tag(best))
        if best != 1:
            findings.append(Finding(text=_offset_text(best, frac), data={"offset": best, "match": round(frac, 4)}))
    if options.steps and not {"labels_not_inputs", "labels_reconstruct_input"} & set(tags):
        _renamed_check(target, labels, options, ctx.seed, (tags, findings, meas))
    return _result(tags, findings, meas)


_CLEAN_SUMMARY = {
    "labels_next_token": "the loss trains each position to predict the next input token",
    "labels_reconstruct_input": "each position sees the whole input and the loss rebuilds it (an autoencoder)",
    "labels_not_inputs": "the labels are not the inputs at any offset in -2..2",
}


def _result(tags: list[str], findings: list[Finding], meas: dict[str, Any]) -> ProbeResult:
    """Failed when any tag is not a clean pairing; the summary says what was found."""
    bad = [t for t in tags if t not in _CLEAN_SUMMARY]
    status: ProbeStatus = "failed" if bad else "passed"
    summary = "; ".join(f.text for f in findings[:2]) if bad else _CLEAN_SUMMARY[tags[0]]
    return ProbeResult(
        name="label_offset", status=status, outcomes=tags, findings=findings, measurements=meas, summary=summary
    )


def _renamed_check(
    target: Target,
    labels: torch.Tensor,
    options: LabelOffsetOptions,
    seed: int,
    into: tuple[list[str], list[Finding], dict[str, Any]],
) -> None:
    """Train a few steps, then score sequences with renamed token ids: below the labels' entropy means copying."""
    tags, findings, meas = into
    entropy, own, fresh = _short_fit(target, labels, options.steps, seed)
    meas.update(
        label_entropy=round(entropy, 4),
        loss_after_steps=round(own, 4),
        loss_on_renamed_tokens=round(fresh, 4),
        steps=options.steps,
    )
    if math.isfinite(fresh) and entropy > 0 and fresh < options.below * entropy:
        tags.append("loss_below_label_entropy")
        findings.append(
            Finding(
                text=f"after {options.steps} training steps the loss on sequences it never saw (token ids "
                f"renamed) is {fresh:.3g}, below the labels' entropy ({entropy:.3g} nats): the model "
                "reads the answer from its input"
            )
        )


def _reads_later_tokens(target: Target, model: torch.nn.Module, logits: torch.Tensor) -> bool:
    """Do the outputs at earlier positions change when only the last input token changes? (not causal)"""
    inputs = clone_batch(target.inputs)
    tokens = inputs[0]
    tokens[:, -1] = (tokens[:, -1] + 1) % logits.shape[-1]  # (B,): another valid token id at the last position
    with torch.no_grad():
        moved = logits_of(call_flat(target, model, inputs))
    if not isinstance(moved, torch.Tensor) or moved.shape != logits.shape:
        return False
    return bool((moved[:, :-1] - logits[:, :-1]).abs().max() > 1e-6 * (logits.abs().max() + 1e-12))


def _offset_tag(k: int) -> str:
    return "labels_next_token" if k == 1 else "labels_shifted_twice" if k >= 2 else "labels_copy_input"


def _offset_text(k: int, frac: float) -> str:
    if k >= 2:
        return (
            f"the loss pairs output position t with input token t+{k} ({frac:.0%} of positions): labels are shifted "
            "twice (in the data and again in the model or loss)"
        )
    where = "itself" if k == 0 else f"t{k}"
    return (
        f"the loss pairs output position t with input token {where} ({frac:.0%} of positions): the label is the "
        "input, so the model learns to copy instead of predicting the next token"
    )


def _short_fit(target: Target, labels: torch.Tensor, steps: int, seed: int) -> tuple[float, float, float]:
    """Label entropy (nats), and the loss after `steps` steps of a copy on the batch: on the batch itself
    and on the batch with every token id renamed by one random permutation of the vocabulary.

    Renaming keeps the pairing of labels with inputs but makes the sequences new: a model that learned
    the data cannot predict them better than the label entropy; a model that copies its input can.
    """
    model = copy_model(target).train()
    opt = make_optimizer(target, model)
    batch = clone_batch(target.batch)
    for _ in range(steps):
        train_step(target, model, opt, batch)
    inputs, targets = clone_batch(target.inputs), clone_batch(target.targets)
    tokens = inputs[0]
    vocab = (
        int(max(int(tokens.max()), int(labels.max()), int(targets.max()) if isinstance(targets, torch.Tensor) else 0))
        + 1
    )
    gen = torch.Generator().manual_seed(seed)
    perm = torch.randperm(vocab, generator=gen).to(tokens.device)

    def rename(x: torch.Tensor) -> torch.Tensor:
        return torch.where(x >= 0, perm[x.clamp(0, vocab - 1)], x)

    # Labels handed to the model as an input (a model computing its own loss) are renamed alike; 0/1 masks are not.
    renamed = tuple(
        rename(x) if i == 0 or (x.shape == tokens.shape and not x.is_floating_point() and int(x.max()) > 1) else x
        for i, x in enumerate(inputs)
    )
    new_targets = rename(targets) if isinstance(targets, torch.Tensor) and not targets.is_floating_point() else targets
    model.eval()
    with torch.no_grad():
        own = as_float(target.loss_fn(call_flat(target, model, inputs), targets))
        fresh = as_float(target.loss_fn(call_flat(target, model, renamed), new_targets))
    return _entropy(labels), own, fresh
