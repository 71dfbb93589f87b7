"""Inputs that are not one batch of tensors: a siamese pair of dict batches, and one graph with no batch axis.

Each is read without a call_model, says how it was read in the report's notes, and is probed on a
buggy and a healthy twin.
"""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from debug_agent.api import make_target
from debug_agent.errors import TargetError
from debug_agent.isolation.target import describe
from debug_agent.schemas import Target, call_each

from .test_probes_by_design import run

V, D = 50, 16


class PairEncoder(nn.Module):
    """Mean-pooled self-attention encoder over token ids; padding is dropped by key_padding_mask."""

    def __init__(self) -> None:
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.attn = nn.MultiheadAttention(D, 2, batch_first=True)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        h = self.emb(input_ids)  # (B, T, D)
        keep = attention_mask.bool()
        a, _ = self.attn(h, h, h, key_padding_mask=~keep)
        m = keep.unsqueeze(-1).float()
        return ((h + a) * m).sum(1) / m.sum(1)  # (B, D)


def _views(mask_pad: int) -> tuple[dict[str, torch.Tensor], dict[str, torch.Tensor]]:
    g = torch.Generator().manual_seed(0)
    lengths = [3, 9, 5, 9, 4, 7, 9, 2]
    ids = torch.zeros(len(lengths), 9, dtype=torch.long)
    mask = torch.full((len(lengths), 9), mask_pad)
    for i, n in enumerate(lengths):
        ids[i, :n] = torch.randint(1, V, (n,), generator=g)
        mask[i, :n] = 1
    return {"input_ids": ids, "attention_mask": mask}, {"input_ids": ids.flip(1), "attention_mask": mask.flip(1)}


def _pair_target(mask_pad: int) -> Target:
    torch.manual_seed(0)
    return Target(
        model=PairEncoder(),
        batch=(_views(mask_pad), torch.ones(8)),
        loss_fn=lambda out, y: (1 - F.cosine_similarity(out[0], out[1]) - 0 * y).mean(),
    )


def test_a_pair_of_dict_batches_runs_each_view_through_the_model():
    t = _pair_target(mask_pad=0)
    assert t.call_model is call_each
    out = t.call_model(t.model, t.raw_inputs)
    assert isinstance(out, tuple) and [o.shape for o in out] == [torch.Size([8, D])] * 2
    assert "model(**view)" in describe(t).extra["call_form"]


@pytest.mark.parametrize("mask_pad,status", [(1, "failed"), (0, "passed")])
def test_a_pair_padded_with_ones_in_its_mask_is_found(mask_pad: int, status: str):
    """A mask padded with 1 (a RoBERTa-style pad id) lets real tokens read the padding; one padded with 0 does not."""
    assert run("padding_audit", _pair_target(mask_pad)).status == status


class EdgeClassifier(nn.Module):
    """Node encoder, then a class per edge from its two end nodes; dropout is functional."""

    def __init__(self, honours_mode: bool) -> None:
        super().__init__()
        self.enc = nn.Linear(8, 32)
        self.cls = nn.Linear(64, 3)
        self.honours_mode = honours_mode

    def forward(self, graph: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
        nodes, edges = graph  # (N, 8), (E, 2)
        h = torch.relu(self.enc(nodes))
        h = F.dropout(h, 0.5, training=self.training) if self.honours_mode else F.dropout(h, 0.5)
        return self.cls(torch.cat([h[edges[:, 0]], h[edges[:, 1]]], dim=-1))  # (E, 3)


def _graph_target(honours_mode: bool) -> Target:
    torch.manual_seed(0)
    nodes, edges = torch.randn(40, 8), torch.randint(0, 40, (100, 2))
    return Target(
        model=EdgeClassifier(honours_mode), batch=((nodes, edges), torch.randint(0, 3, (100,))), loss_fn=F.cross_entropy
    )


def test_a_graph_whose_inputs_share_no_axis_is_read_as_one_structure():
    t = _graph_target(honours_mode=True)
    assert not t.has_batch_axis and t.unbatched_sizes == (40, 100)
    assert "share no batch axis" in describe(t).extra["batch_axis"]
    r = run("dependency", t)
    assert r.status == "not_applicable" and "no batch axis" in r.summary


@pytest.mark.parametrize("honours_mode,status", [(False, "failed"), (True, "passed")])
def test_dropout_that_ignores_eval_mode_is_found_on_a_graph(honours_mode: bool, status: str):
    assert run("eval_randomness", _graph_target(honours_mode)).status == status


def test_inputs_that_could_share_an_axis_still_ask_for_batch_axis():
    """(T, B, F) beside (L, B, H): a batch_axis would line them up, so the user is asked for it."""
    with pytest.raises(TargetError, match="batch_axis"):
        make_target(model=nn.Linear(3, 1), batch=((torch.randn(7, 4, 3), torch.randn(2, 4, 5)), torch.zeros(4)))
