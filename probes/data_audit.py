"""data_audit: overlap between splits, labels a simple model can predict, feature scales, NaN, balance."""

from __future__ import annotations

import math
from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field

from debug_agent.schemas import Finding, ProbeResult, Target

from ._common import main_input
from ._data import DataNotUsable, data_rows, index_dtype, scale_check
from ._fit_stats import stats_from_val
from ._label_models import predictability, standardise
from ._relayout import restoring_reading
from ._tokens import bag_of_tokens, position_lookup
from .registry import ProbeContext, probe


class DataAuditOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    max_examples: int = Field(default=2000, ge=10, le=100_000, description="examples read from each split")
    overlap: float = Field(
        default=0.01, ge=0, le=1, description="fraction of validation rows found in training that flags leakage"
    )
    scale: float = Field(default=50.0, gt=0, description="feature mean or std above which inputs count as unscaled")
    near: float = Field(
        default=0.99, gt=0, lt=1, description="cosine similarity (standardised features) that makes a near duplicate"
    )


def _materialise(data: Any, limit: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(X, Y) from any data the protocol accepts (see `data_rows`); X flattened to (n, d) float64."""
    x, y = data_rows(data, limit)
    return x.reshape(len(x), -1).double(), y.reshape(len(y), -1).squeeze(-1) if y.dim() > 1 and y.shape[-1] == 1 else y


def _classification(y: torch.Tensor) -> bool:
    return not y.is_floating_point() or bool((y == y.round()).all()) and y.unique().numel() <= max(20, len(y) // 20)


def _token_ids(target: Target) -> bool:
    """Integer inputs (token or category ids): names, not magnitudes, so nearness between rows means nothing."""
    return not bool(data_rows(target.train_data, 1)[0].is_floating_point())


def _overlap(xt: torch.Tensor, xv: torch.Tensor, near: float = 0.99) -> tuple[int, int]:
    """Validation rows equal (up to float noise) to some training row, and rows nearly equal to one.

    Near means cosine similarity above `near` between standardised rows, each centred on its own mean (an
    offset shared by a whole row, such as an image's brightness, would make unrelated rows point the same
    way); it is only counted with 8 or more features, where two unrelated rows essentially never do.
    """
    xs, vs = standardise(xt, xt), standardise(xv, xt)
    tol = 1e-6 * math.sqrt(xs.shape[1])
    centred = xs - xs.mean(dim=1, keepdim=True)
    unit = centred / centred.norm(dim=1, keepdim=True).clamp_min(1e-12)
    hits = close = 0
    for chunk in vs.split(512):
        exact = torch.cdist(chunk, xs).min(dim=1).values <= tol
        hits += int(exact.sum())
        if xs.shape[1] >= 8:
            c = chunk - chunk.mean(dim=1, keepdim=True)
            cos = (c / c.norm(dim=1, keepdim=True).clamp_min(1e-12)) @ unit.T
            close += int(((cos.max(dim=1).values >= near) & ~exact).sum())
    return hits, close


def _group_overlap(groups: tuple[Any, Any]) -> tuple[int, int, list[str]]:
    """Validation rows whose group id also occurs in training, distinct shared groups, a few of them."""
    seen = {_key(g) for g in groups[0]}
    shared = [_key(g) for g in groups[1] if _key(g) in seen]
    return len(shared), len(set(shared)), sorted({str(g) for g in shared})[:5]


def _key(g: Any) -> Any:
    if isinstance(g, torch.Tensor):
        return g.item() if g.numel() == 1 else tuple(g.reshape(-1).tolist())
    return g if isinstance(g, (str, int, float, tuple, bytes)) else str(g)


@probe(
    headline=("val_rows_in_train", "train_heldout"),
    outcomes=(
        "splits_disjoint",
        "splits_overlap",
        "splits_near_duplicate",
        "groups_disjoint",
        "groups_overlap",
        "labels_predictable",
        "labels_unpredictable",
        "val_labels_unpredictable",
        "val_relation_differs",
        "val_layout_scrambled",
        "stats_from_val",
        "features_scaled",
        "features_unscaled",
        "constant_features",
        "inputs_constant",
        "nonfinite_data",
        "class_imbalance",
    ),
    cost=1.0,
    options=DataAuditOptions,
)
def data_audit(target: Target, ctx: ProbeContext, options: DataAuditOptions) -> ProbeResult:
    """Audit the data: split overlap, labels predictable from inputs, feature scale, NaN/Inf, class balance.

    Reads up to `max_examples` from `train_data` and `val_data` (a Dataset or an (X, Y) pair; with
    neither, the batch). Validation rows equal to training rows mean leakage; so do rows nearly equal
    (cosine similarity above `near` between standardised rows; not for integer ids) and, when the target gives `groups`
    (a group id per train and val row: patient, user, document), groups found on both sides. Labels are checked with
    two quick simple models (k-nearest neighbours and ridge regression; integer token ids with one label
    per row are read as token frequencies): unpredictable within train means inputs and labels were paired
    wrongly; predictable in train but not in val means the splits disagree. With no more rows than
    features, or under 8 rows per class, a failed label check is inconclusive (`label_check` says why),
    never evidence. Feature means or standard deviations above `scale`, constant features and Inf/NaN are
    reported, and classes under 5% of the examples. Normalisation statistics that saw validation rows (a
    stored per-feature extreme only validation rows reach; features scaled exactly over both splits) are
    `stats_from_val`; validation labels that follow validation inputs although train's models miss them
    are `val_relation_differs` (the relation moved), not unpredictable labels.
    """
    source = "train_data" if target.train_data is not None else "batch"
    try:
        return _audit(target, options, source)
    except DataNotUsable as exc:
        return ProbeResult(name="data_audit", status="not_applicable", summary=str(exc))


def _audit(target: Target, options: DataAuditOptions, source: str) -> ProbeResult:
    if target.train_data is not None:
        xt, yt = _materialise(target.train_data, options.max_examples)
    else:
        first = main_input(target)
        xt, yt = first.detach().movedim(target.input_axes[0], 0).reshape(target.batch_size, -1).double(), target.targets
        if not first.is_floating_point():
            return ProbeResult(
                name="data_audit",
                status="not_applicable",
                summary="no train_data/val_data and the batch inputs are not numeric features",
            )
    xv = yv = None
    if target.val_data is not None:
        xv, yv = _materialise(target.val_data, options.max_examples)
    tags: list[str] = []
    findings: list[Finding] = []
    meas: dict[str, Any] = {"source": source, "train_examples": len(xt), "features": xt.shape[1]}
    if not bool(torch.isfinite(xt).all()) or (xv is not None and not bool(torch.isfinite(xv).all())):
        tags.append("nonfinite_data")
        findings.append(Finding(text=f"the inputs hold {int((~torch.isfinite(xt)).sum())} Inf/NaN value(s)"))
        xt = torch.nan_to_num(xt, nan=0.0, posinf=0.0, neginf=0.0)
    mean, std = xt.mean(0), xt.std(0)
    meas.update(
        max_abs_mean=float(f"{float(mean.abs().max()):.4g}"),
        max_std=float(f"{float(std.max()):.4g}"),
        min_std=float(f"{float(std.min()):.4g}"),
    )
    if target.train_data is not None and index_dtype(target.train_data):
        # Token or category ids (int16/32/64) name rows of an embedding: their magnitude is not a scale.
        meas["integer_ids"] = True
    else:
        for tag, text in scale_check(xt, mean, std, options.scale):
            tags.append(tag)
            findings += [Finding(text=text)] if text else []
    if not isinstance(yt, torch.Tensor) or len(yt) != len(xt) or len(xt) < 8 or "inputs_constant" in tags:
        return _result(tags, findings, meas)  # identical inputs: overlap and label checks would only echo that
    cls = _classification(yt)
    if cls:
        counts = torch.bincount(yt.reshape(-1).long() - int(yt.min()))  # per-position labels count too
        freq = counts[counts > 0].double() / counts.sum()
        chance = float(freq.max())
        meas.update(
            classes=int((counts > 0).sum()), chance=round(chance, 4), min_class_fraction=round(float(freq.min()), 4)
        )
        if float(freq.min()) < 0.05 and len(freq) <= 20:
            tags.append("class_imbalance")
    else:
        chance = 0.0
    if target.groups is not None:
        _audit_groups(target.groups, options, tags, findings, meas)
    if xv is not None:
        _split_check(target, (xt, xv), source, options, (tags, findings, meas))
    if source == "train_data":
        _label_check(target, (xt, yt), (xv, yv), cls, chance, tags, findings, meas)
    return _result(tags, findings, meas)


def _split_check(
    target: Target,
    rows: tuple[torch.Tensor, torch.Tensor],
    source: str,
    options: DataAuditOptions,
    into: tuple[list[str], list[Finding], dict[str, Any]],
) -> None:
    """Validation rows found in training, exactly or nearly (only when training rows are really train_data)."""
    xt, xv = rows
    tags, findings, meas = into
    if source == "batch":
        meas["split_check"] = "skipped: no train_data, and the batch may be drawn from the validation data itself"
        return
    dup, close = _overlap(xt, xv, options.near)
    meas.update(val_examples=len(xv), val_rows_in_train=dup, val_rows_near_train=close)
    if dup >= 2 and dup / len(xv) > options.overlap:
        tags.append("splits_overlap")
        findings.append(
            Finding(text=f"{dup} of {len(xv)} validation examples ({dup / len(xv):.0%}) also appear in training")
        )
    elif close >= 2 and close / len(xv) > options.overlap and not _token_ids(target):
        tags.append("splits_near_duplicate")
        findings.append(
            Finding(
                text=f"{close} of {len(xv)} validation examples ({close / len(xv):.0%}) are near duplicates of "
                f"training examples (cosine similarity above {options.near:g})"
            )
        )
    elif dup:
        # Too few to call leakage, yet not disjoint either: noted, and no reassurance drawn from it.
        findings.append(Finding(text=f"{dup} of {len(xv)} validation examples also appear in training (under "
                                     f"{options.overlap:.0%}: noted, not called leakage)"))
    else:
        tags.append("splits_disjoint")
    if text := stats_from_val(target.model, xt, xv):
        tags.append("stats_from_val")
        findings.append(Finding(text=text))


def _label_features(
    target: Target, xt: torch.Tensor, yt: torch.Tensor, xv: torch.Tensor | None
) -> tuple[torch.Tensor | None, torch.Tensor | None, str | None]:
    """The features the label check reads: the inputs as they are, or for integer token ids with one
    label per row, token frequencies (ids are names, not magnitudes: kNN and ridge would read them as
    numbers). (None, None, reason) when the check cannot read the inputs or the labels."""
    floats = bool(data_rows(target.train_data, 1)[0].is_floating_point())
    if yt.dim() != 1:  # a reconstruction or dense map; or a label per token position
        return None, None, f"skipped: {'float' if floats else 'integer'} inputs with several label values per row"
    if floats:
        return xt, xv, None
    buckets = int(min(int(xt.max()) + 1 if xt.numel() else 1, 512))
    bag_v = bag_of_tokens(xv, buckets) if xv is not None else None
    return bag_of_tokens(xt, buckets), bag_v, None


def _underpowered(n: int, d: int, cls: bool, classes: int) -> str | None:
    """Why a negative label check would mean nothing here (None when it has the power to mean something)."""
    if n <= d:
        return f"{n} examples for {d} features: too few rows for simple models to find a real relation"
    if not cls and n < 2 * d:  # regression has no class means: ridge fits half the rows, and fewer rows
        return f"{n} examples for {d} features: the half the ridge check fits on has fewer rows than features"
    if cls and n < 8 * classes:
        return f"{n} examples for {classes} classes: too few per class for simple models"
    return None


def _label_check(
    target: Target,
    train: tuple[torch.Tensor, torch.Tensor],
    val: tuple[torch.Tensor | None, torch.Tensor | None],
    cls: bool,
    chance: float,
    tags: list[str],
    findings: list[Finding],
    meas: dict[str, Any],
) -> None:
    """Labels predictable from the inputs by two simple models? Unpredictable counts only when the check
    has the power to find a relation (more rows than features, enough rows per class); else it abstains."""
    (xt, yt), (xv, yv) = train, val
    if cls and int(meas.get("classes", 0)) < 2:  # one-class training data (anomaly detection): no relation to find
        meas["label_check"] = "skipped: every training label is the same class"
        return
    ft, fv, skipped = _label_features(target, xt, yt, xv)
    if ft is None:
        meas["label_check"] = skipped
        return
    skill = predictability(ft, yt, fv, yv, cls)
    if cls and not bool(data_rows(target.train_data, 1)[0].is_floating_point()):
        lookup = position_lookup(xt, yt, xv, yv)
        skill = {k: max(v, lookup.get(k, v)) for k, v in skill.items()}
    # Skill above chance + margin is a relation; at most chance + floor is none. Between the two the
    # simple models find a weak relation (a few sigma above chance): neither claim is safe. Both bounds
    # carry 0.02 of slack: skill is the best of several models, which lifts it above chance by noise.
    sigma = math.sqrt(max(chance * (1 - chance), 0.01) / len(ft))
    margin, floor = (3 * sigma + 0.02, 2 * sigma + 0.02) if cls else (0.05, 0.02)  # +0.02: a max over models
    meas.update({k: round(v, 4) for k, v in skill.items()}, skill_margin=round(margin, 4), skill_floor=round(floor, 4))
    weak = _underpowered(len(ft), ft.shape[1], cls, int(meas.get("classes", 0)))
    above = {k: v > chance + margin for k, v in skill.items()}
    if all(above.values()):
        tags.append("labels_predictable")
    elif weak is not None:  # a negative answer from a check without power is no evidence: abstain
        meas["label_check"] = f"inconclusive: {weak}"
    else:
        _label_verdict(skill, chance, (margin, floor), "accuracy" if cls else "R^2", (tags, findings, meas))
    if "val_relation_differs" in tags and fv is not None and yv is not None:
        row = tuple(data_rows(target.train_data, 1)[0].shape[1:])
        bar = max(chance + margin, skill["train_heldout"] - margin)  # as good as on held-out training rows
        if (found := restoring_reading((ft, yt), (fv, yv), row, cls, bar)) is not None:
            tags.append("val_layout_scrambled")
            meas["val_skill_relaid"] = round(found[1], 4)
            findings.append(
                Finding(
                    text=f"validation inputs read as `{found[0]}` follow training's input-label relation "
                    f"({found[1]:.2f}, held-out training rows {skill['train_heldout']:.2f}, as given "
                    f"{skill['val']:.2f}): the validation split was laid out differently (a reshape where a "
                    "permute was meant)"
                )
            )


def _label_verdict(
    skill: dict[str, float], chance: float, bounds: tuple[float, float], metric: str, out: tuple[list, list, dict]
) -> None:
    (margin, floor), (tags, findings, meas) = bounds, out
    within = f"{metric} {skill['train_heldout']:.2f}"
    if chance + floor < skill["train_heldout"] <= chance + margin:
        meas["label_check"] = f"inconclusive: simple models find a weak relation ({within} vs chance {chance:.2f})"
    elif skill["train_heldout"] <= chance + floor:
        tags.append("labels_unpredictable")
        text = f"simple models predict training labels no better than chance ({within} vs chance {chance:.2f})"
        findings.append(Finding(text=text + ": inputs and labels look unrelated"))
    elif "val" in skill and skill["val"] <= chance + floor and skill["train_heldout"] > chance + 2 * margin:
        text = f"labels are predictable within train ({within}) but not on validation ({skill['val']:.2f} vs "
        if skill.get("val_within", chance) > chance + margin:
            # Validation labels follow validation inputs: the relation moved between splits, the pairs are intact.
            tags.append("val_relation_differs")
            text += (
                f"chance {chance:.2f}) by models fit on train, while within validation they are "
                f"({skill['val_within']:.2f}): the input-label relation differs between the splits, labels are intact"
            )
            findings.append(Finding(text=text))
            return
        tags.append("val_labels_unpredictable")
        findings.append(Finding(text=text + f"chance {chance:.2f})"))
    else:
        tags.append("labels_predictable")


def _audit_groups(
    groups: tuple[Any, Any], options: DataAuditOptions, tags: list[str], findings: list[Finding], meas: dict[str, Any]
) -> None:
    rows, distinct, names = _group_overlap(groups)
    n_val = max(len(groups[1]), 1)
    meas.update(val_rows_in_train_groups=rows, shared_groups=distinct)
    # Groups are the user's own statement of what must not be shared: two or more shared ones are a leak
    # whatever their share (a single one may be a catch-all id such as "unknown").
    if rows and (rows / n_val > options.overlap or distinct >= 2):
        tags.append("groups_overlap")
        findings.append(
            Finding(
                text=f"{rows} of {len(groups[1])} validation rows ({rows / n_val:.1%}) belong to {distinct} group(s) "
                f"that also occur in training (e.g. {', '.join(names)})",
                data={"shared_groups": names},
            )
        )
    else:
        tags.append("groups_disjoint")


def _result(tags: list[str], findings: list[Finding], meas: dict[str, Any]) -> ProbeResult:
    bad = {
        "splits_overlap",
        "splits_near_duplicate",
        "groups_overlap",
        "labels_unpredictable",
        "val_labels_unpredictable",
        "stats_from_val",
        "features_unscaled",
        "constant_features",
        "inputs_constant",
        "nonfinite_data",
    } & set(tags)
    summary = (
        "; ".join(f.text for f in findings[:2])
        if bad
        else (f"{meas['train_examples']} examples: " + ", ".join(t.replace("_", " ") for t in tags))
    )
    if not tags:  # no check applied (token ids, no val_data, no label check): nothing passed
        summary += "no check applied" + (f" ({meas['label_check']})" if "label_check" in meas else "")
    return ProbeResult(
        name="data_audit",
        status="failed" if bad else "passed" if tags else "inconclusive",
        outcomes=tags,
        findings=findings,
        measurements=meas,
        summary=summary,
    )
