"""padding_audit on our own padded encoder: an inverted padding mask lets real positions read the
padding; pad labels without ignore_index count padding in the loss; the healthy twins pass both."""

from __future__ import annotations

import pytest
import torch
from torch import nn
from torch.nn import functional as F

import debug_agent.probes as P
from debug_agent.isolation import probe_registry
from debug_agent.probes.padding_audit import find_padding
from debug_agent.schemas import ProbeResult, Target

V, PAD = 30, 0


class Encoder(nn.Module):
    """A bidirectional token tagger: attention_mask 1 = real token, as tokenizers return it."""

    def __init__(self) -> None:
        super().__init__()
        self.emb = nn.Embedding(V, 16)
        self.layer = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True)
        self.out = nn.Linear(16, V)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        h = self.layer(self.emb(input_ids), src_key_padding_mask=attention_mask == 0)
        return self.out(h)


def _batch(seed: int = 1) -> tuple[torch.Tensor, torch.Tensor]:
    ids = torch.randint(1, V, (6, 10), generator=torch.Generator().manual_seed(seed))
    mask = torch.ones_like(ids)
    mask[::2, 7:] = 0  # every other row right-padded
    return ids.masked_fill(mask == 0, PAD), mask


def _ce(logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return F.cross_entropy(logits.reshape(-1, V), y.reshape(-1), ignore_index=-100)


def _target(invert_mask: bool = False, pad_labels: str = "ignore") -> Target:
    torch.manual_seed(0)
    ids, mask = _batch()
    labels = ids.masked_fill(mask == 0, -100) if pad_labels == "ignore" else ids.clone()
    inputs = {"input_ids": ids, "attention_mask": 1 - mask if invert_mask else mask}
    return Target(model=Encoder(), batch=(inputs, labels), loss_fn=_ce)


def run(target: Target) -> ProbeResult:
    probe_registry()
    return P.execute("padding_audit", target, P.ProbeContext(seed=0, budget_s=60), {})


def test_healthy_padding_passes():
    r = run(_target())
    assert r.status == "passed" and r.outcomes == ["padding_masked", "padding_ignored_in_loss"], r.summary
    assert r.measurements["padded_rows"] == 3 and r.measurements["positions_trained_on_pad_id"] == 0


def test_inverted_mask_lets_real_positions_read_padding():
    r = run(_target(invert_mask=True))
    assert r.status == "failed" and "padding_attended" in r.outcomes, r.summary
    assert r.measurements["mask_value_at_padding"] == 1  # found from the tokens, not from the mask's polarity


def test_pad_labels_without_ignore_index_count_padding():
    r = run(_target(pad_labels="pad_id"))
    assert r.status == "failed" and r.outcomes == ["padding_masked", "padding_counted"], r.summary
    assert r.measurements["positions_trained_on_pad_id"] == 9
    assert "ignore_index" in r.findings[0].text


def test_no_padding_is_not_applicable():
    t = _target()
    ids = torch.randint(1, V, (6, 10))
    t = Target(model=t.model, batch=({"input_ids": ids, "attention_mask": torch.ones_like(ids)}, ids), loss_fn=_ce)
    assert run(t).status == "not_applicable"


@pytest.mark.parametrize("ends", ["left", "right"])
def test_find_padding_reads_runs_at_row_ends(ends):
    ids, mask = _batch()
    if ends == "left":
        ids, mask = ids.flip(1), mask.flip(1)
    ti, mi, sel, pad_id, value = find_padding((ids, mask))
    assert (ti, mi, pad_id, value) == (0, 1, PAD, 0) and int(sel.sum()) == 9
    scattered = mask.clone()
    scattered[1, 3] = 0  # a hole inside a row is not padding
    assert find_padding((ids, scattered)) is None


class GruTagger(nn.Module):
    """Token ids only, no mask input: right-padded rows go through a GRU."""

    def __init__(self) -> None:
        super().__init__()
        self.emb = nn.Embedding(V, 16, padding_idx=PAD)
        self.gru = nn.GRU(16, 16, batch_first=True)
        self.out = nn.Linear(16, V)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.out(self.gru(self.emb(ids))[0])  # (B, T, V)


def _maskless(pad_labels: str) -> Target:
    torch.manual_seed(0)
    ids = torch.randint(1, V, (6, 10), generator=torch.Generator().manual_seed(2))
    for row, length in enumerate((4, 10, 6, 8, 5, 7)):  # runs of several lengths
        ids[row, length:] = PAD
    labels = ids.masked_fill(ids == PAD, -100) if pad_labels == "ignore" else ids.clone()
    return Target(model=GruTagger(), batch=(ids, labels), loss_fn=_ce)


@pytest.mark.parametrize(
    ("pad_labels", "outcome"), [("counted", "padding_counted"), ("ignore", "padding_ignored_in_loss")]
)
def test_padding_without_a_mask_input_audits_the_loss(pad_labels: str, outcome: str):
    r = run(_maskless(pad_labels))
    assert r.outcomes == [outcome], r.summary
    assert r.measurements["pad_id"] == PAD and "not audited" in r.measurements["attention_check"]
    # plain torch: the counted loss does train the padded positions toward the pad id
    target = _maskless(pad_labels)
    logits = torch.zeros(6, 10, V, requires_grad=True)
    _ce(logits, target.batch[1]).backward()
    padded = target.batch[0] == PAD
    assert bool((logits.grad[padded][:, PAD] < 0).all()) == (pad_labels == "counted")


def test_unpadded_token_ids_are_not_read_as_padding():
    ids = torch.randint(1, V, (6, 10), generator=torch.Generator().manual_seed(3))
    assert find_padding((ids,)) is None


def test_a_mask_of_all_ones_beside_padded_ids_lets_real_positions_read_the_padding():
    """A collate helper that builds the mask as ones_like(ids): padding is found from the ids themselves."""
    torch.manual_seed(0)
    ids = torch.randint(1, V, (6, 10), generator=torch.Generator().manual_seed(3))
    lengths = torch.tensor([10, 7, 5, 8, 4, 6])
    real = torch.arange(10)[None, :] < lengths[:, None]
    ids = ids.masked_fill(~real, PAD)
    labels = ids.masked_fill(~real, -100)
    blank = run(Target(model=Encoder(), batch=({"input_ids": ids, "attention_mask": torch.ones_like(ids)}, labels),
                       loss_fn=_ce))  # fmt: skip
    assert blank.status == "failed" and "padding_attended" in blank.outcomes, blank.summary
    assert "marks no position as padding" in blank.findings[0].text
    torch.manual_seed(0)
    built = run(Target(model=Encoder(), batch=({"input_ids": ids, "attention_mask": real.long()}, labels), loss_fn=_ce))
    assert built.status == "passed" and "padding_masked" in built.outcomes, built.summary


class LabelQueries(nn.Module):
    """A pooled classifier, ids only: one learned query per class attends over the tokens (SDPA), with the
    padding mask built from the ids. SDPA reads a boolean mask as True = may attend."""

    def __init__(self, mask: str) -> None:
        super().__init__()
        self.mask = mask
        self.emb = nn.Embedding(V, 16, padding_idx=PAD)
        self.queries = nn.Parameter(torch.randn(2, 16))
        self.score = nn.Linear(16, 1)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        h = self.emb(ids)  # (B, T, 16)
        keep = {"right": ids != PAD, "inverted": ids == PAD, "none": torch.ones_like(ids, dtype=torch.bool)}[self.mask]
        q = self.queries.expand(ids.shape[0], -1, -1)  # (B, 2, 16)
        ctx = F.scaled_dot_product_attention(q, h, h, attn_mask=keep[:, None, :])  # (B, 2, 16)
        return self.score(ctx).squeeze(-1)  # (B, 2)


def _pooled(mask: str) -> Target:
    torch.manual_seed(0)
    ids = torch.randint(1, V, (6, 10), generator=torch.Generator().manual_seed(4))
    for row, length in enumerate((4, 7, 6, 8, 5, 7)):  # every row padded, runs of several lengths
        ids[row, length:] = PAD
    return Target(model=LabelQueries(mask), batch=(ids, torch.randint(0, 2, (6,))), loss_fn=F.cross_entropy)


@pytest.mark.parametrize(("mask", "status"), [("right", "passed"), ("inverted", "failed"), ("none", "failed")])
def test_a_mask_built_from_the_ids_inside_the_model(mask: str, status: str):
    """No mask input: shortening the shared padding must leave outputs put, and the real tokens must count."""
    r = run(_pooled(mask))
    assert r.status == status, r.summary
    assert r.outcomes == (["padding_masked"] if status == "passed" else ["padding_attended"]), r.summary
    # plain torch: with the inverted mask the pooled scores ignore the real tokens entirely
    model, (ids, _) = _pooled(mask).model, _pooled(mask).batch
    other = ids.masked_fill(ids != PAD, 3)
    with torch.no_grad():
        same = torch.allclose(model(ids), model(other))
    assert same == (mask == "inverted")


class PadLast(nn.Module):
    """Pad id V - 1, the last row of the embedding table; the mask is built from the ids."""

    def __init__(self) -> None:
        super().__init__()
        self.emb = nn.Embedding(V, 16)
        self.query = nn.Parameter(torch.randn(1, 1, 16))
        self.head = nn.Linear(16, 2)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        keep = (ids != V - 1)[:, None, :]  # (B, 1, T): True = may attend
        ctx = F.scaled_dot_product_attention(self.query.expand(len(ids), -1, -1), self.emb(ids), self.emb(ids),
                                             attn_mask=keep)  # fmt: skip
        return self.head(ctx[:, 0])


def test_a_pad_id_that_is_the_largest_id_is_never_redrawn_out_of_the_vocabulary():
    torch.manual_seed(0)
    ids = torch.randint(0, V - 2, (6, 10), generator=torch.Generator().manual_seed(5))
    for row, length in enumerate((4, 7, 6, 8, 5, 7)):
        ids[row, length:] = V - 1
    r = run(Target(model=PadLast(), batch=(ids, torch.randint(0, 2, (6,))), loss_fn=F.cross_entropy))
    assert r.status == "passed" and r.outcomes == ["padding_masked"], r.summary


class FixedLength(nn.Module):
    """A tagger with a learned position table of one length (10): a shorter sequence cannot go in."""

    def __init__(self) -> None:
        super().__init__()
        self.emb = nn.Embedding(V, 16)
        self.pos = nn.Parameter(torch.randn(10, 16) * 0.02)
        self.layer = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True)
        self.out = nn.Linear(16, V)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.out(self.layer(self.emb(ids) + self.pos))  # (B, 10, V)


@pytest.mark.parametrize(
    ("labels_at_pad", "outcomes"), [(PAD, ["padding_counted"]), (-100, ["padding_ignored_in_loss"])]
)
def test_a_fixed_length_model_gets_no_attention_verdict_but_its_loss_is_audited(labels_at_pad, outcomes):
    """Dropping padding columns cannot run on a one-length model: no error and no 'masked' verdict from it."""
    torch.manual_seed(0)
    ids = torch.randint(1, V, (6, 10), generator=torch.Generator().manual_seed(6))
    for row, length in enumerate((4, 7, 6, 8, 5, 7)):
        ids[row, length:] = PAD
    labels = ids.masked_fill(ids == PAD, labels_at_pad)
    loss = lambda out, y: F.cross_entropy(out.reshape(-1, V), y.reshape(-1))  # noqa: E731
    r = run(Target(model=FixedLength(), batch=(ids, labels), loss_fn=loss))
    assert r.status != "error" and r.outcomes == outcomes, r.summary
    assert "one sequence length" in r.measurements["attention_check"]


class TagHead(nn.Module):
    """A tagger: token ids in, (B, T, 5) tag logits out; the tags are not the token vocabulary."""

    def __init__(self) -> None:
        super().__init__()
        self.emb = nn.Embedding(V, 16, padding_idx=PAD)
        self.gru = nn.GRU(16, 16, batch_first=True)
        self.out = nn.Linear(16, 5)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.out(self.gru(self.emb(ids))[0])  # (B, T, 5)


def _tagger(pad_tags: str) -> Target:
    torch.manual_seed(0)
    ids = torch.randint(1, V, (6, 10), generator=torch.Generator().manual_seed(2))
    for row, length in enumerate((4, 10, 6, 8, 5, 7)):
        ids[row, length:] = PAD
    tags = ids % 4 + 1  # tags 1..4 on real tokens
    # "as_tag": the padded positions get tag 0 and the loss trains them; "ignore": -100, left out
    tags = tags.masked_fill(ids == PAD, 0 if pad_tags == "as_tag" else -100)
    return Target(model=TagHead(), batch=(ids, tags), loss_fn=_tag_ce)


def _tag_ce(logits: torch.Tensor, tags: torch.Tensor) -> torch.Tensor:
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tags.reshape(-1))  # (B*T, 5) vs (B*T,)


@pytest.mark.parametrize(
    ("pad_tags", "outcome"), [("as_tag", "padding_counted"), ("ignore", "padding_ignored_in_loss")]
)
def test_a_tagger_loss_that_trains_padded_positions_on_a_pad_tag_counts_the_padding(pad_tags: str, outcome: str):
    r = run(_tagger(pad_tags))
    assert r.outcomes == [outcome], r.summary
    target = _tagger(pad_tags)
    logits = torch.zeros(6, 10, 5, requires_grad=True)
    _tag_ce(logits, target.batch[1]).backward()  # plain torch: do padded positions get a gradient?
    padded = target.batch[0] == PAD
    assert bool(logits.grad[padded].abs().sum() > 0) == (pad_tags == "as_tag")
    assert (r.measurements["positions_trained_on_pad_id"] == int(padded.sum())) == (pad_tags == "as_tag")


def _weighted_nll(divide_by_all: bool):
    """A pad class weight of 0 keeps padding out of the gradient; the mean is the question."""
    weight = torch.ones(V)
    weight[PAD] = 0.0

    def loss(logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        total = F.cross_entropy(logits.reshape(-1, V), y.reshape(-1), weight=weight, reduction="sum")
        return total / (y.numel() if divide_by_all else (y != PAD).sum())  # all B*T positions, or real ones

    return loss


@pytest.mark.parametrize(("divide_by_all", "outcome"), [(True, "padding_in_mean"), (False, "padding_ignored_in_loss")])
def test_a_mean_that_divides_by_the_padding_is_found(divide_by_all: bool, outcome: str):
    base = _maskless("counted")  # labels keep the pad id; the zero class weight removes it
    target = Target(model=base.model, batch=base.batch, loss_fn=_weighted_nll(divide_by_all))
    r = run(target)
    assert outcome in r.outcomes, r.summary
    # plain torch: with the padding in the mean, appending pad columns changes the loss of the same tokens
    ids, labels = base.batch
    more = F.pad(labels, (0, 5), value=PAD)
    logits = torch.randn(6, 15, V, generator=torch.Generator().manual_seed(0))
    short, long = target.loss_fn(logits[:, :10], labels), target.loss_fn(logits, more)
    assert bool(torch.isclose(short, long)) != divide_by_all
