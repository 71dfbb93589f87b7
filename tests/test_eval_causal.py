"""eval_causal: a decoder whose training batch carries a correct causal mask, and whose evaluation routine
builds its own mask. Built inverted (`triu` where `tril` was meant), decoding reads later tokens; built right,
or taken from the batch, it keeps causal order."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from debug_agent.schemas import Target

from .test_probes_by_design import run

V, D, T = 20, 16, 8


class Decoder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.tok, self.qkv, self.head = nn.Embedding(V, D), nn.Linear(D, 3 * D), nn.Linear(D, V)

    def forward(self, tokens: torch.Tensor, allowed: torch.Tensor) -> torch.Tensor:  # (B, T), (B, T, T)
        q, k, v = self.qkv(self.tok(tokens)).chunk(3, dim=-1)  # (B, T, D) each
        scores = (q @ k.transpose(1, 2) / D**0.5).masked_fill(~allowed, float("-inf"))
        return self.head(torch.softmax(scores, dim=-1) @ v)  # (B, T, V)


def _allowed(inverted: bool) -> torch.Tensor:
    ones = torch.ones(T, T, dtype=torch.bool)
    return (torch.triu(ones) if inverted else torch.tril(ones)).unsqueeze(0)  # (1, T, T)


def _target(style: str) -> Target:
    torch.manual_seed(0)
    tokens = torch.randint(0, V, (6, T + 1))
    x, y = tokens[:, :-1], tokens[:, 1:]

    def eval_fn(model: nn.Module, batch: tuple) -> torch.Tensor:
        (toks, mask), _ = batch
        with torch.no_grad():
            return model(toks, mask if style == "batch_mask" else _allowed(style == "inverted").expand(len(toks), T, T))

    return Target(model=Decoder(), batch=((x, _allowed(False).expand(6, T, T)), y), eval_fn=eval_fn, causal=True,
                  loss_fn=lambda out, t: nn.functional.cross_entropy(out.reshape(-1, V), t.reshape(-1)))  # fmt: skip


def test_an_evaluation_routine_with_an_inverted_mask_reads_the_future():
    r = run("eval_causal", _target("inverted"))
    assert r.status == "failed" and r.outcomes == ["eval_path_sees_future"], r.summary


@pytest.mark.parametrize("style", ["right", "batch_mask"])
def test_an_evaluation_routine_with_a_causal_mask_keeps_order(style: str):
    r = run("eval_causal", _target(style))
    assert r.status == "passed" and r.outcomes == ["eval_path_causal"], r.summary
