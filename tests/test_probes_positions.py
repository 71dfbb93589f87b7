"""dependency's causal leak pattern: a missing/shifted mask (a superset of causal dependence) against
a layout scramble (heads split by a reshape that mixes positions), on our own attention models."""

from __future__ import annotations

import math

import pytest
import torch
from torch import nn
from torch.nn import functional as F

import debug_agent.probes as P
from debug_agent.isolation import probe_registry
from debug_agent.probes._positions import position_pattern
from debug_agent.schemas import ProbeResult, Target

V, C, H = 24, 16, 2


class Attn(nn.Module):
    """Multi-head causal self-attention with a residual; `split` picks how heads are made."""

    def __init__(self, split: str = "transpose", diagonal: int | None = 1) -> None:
        super().__init__()
        self.qkv, self.proj = nn.Linear(C, 3 * C), nn.Linear(C, C)
        self.split, self.diagonal = split, diagonal

    def _heads(self, x: torch.Tensor) -> torch.Tensor:
        B, L, _ = x.shape
        if self.split == "reshape":
            return x.reshape(B, H, L, C // H)  # bug: mixes positions into heads
        return x.view(B, L, H, C // H).transpose(1, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, L, _ = x.shape
        q, k, v = (self._heads(t) for t in self.qkv(x).split(C, dim=2))
        att = q @ k.transpose(-2, -1) / math.sqrt(C // H)
        if self.diagonal is not None:  # blocked set: s > t (+ diagonal - 1)
            blocked = torch.triu(torch.ones(L, L, dtype=torch.bool), diagonal=self.diagonal)
            att = att.masked_fill(blocked, float("-inf"))
        y = (F.softmax(att, -1) @ v).transpose(1, 2).reshape(B, L, C)
        return x + self.proj(y)


class LM(nn.Module):
    def __init__(self, layers: int = 2, **kw) -> None:
        super().__init__()
        self.emb = nn.Embedding(V, C)
        self.blocks = nn.ModuleList([Attn(**kw) for _ in range(layers)])
        self.out = nn.Linear(C, V)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        x = self.emb(ids)
        for b in self.blocks:
            x = b(x)
        return self.out(x)


def _target(**kw) -> Target:
    torch.manual_seed(0)
    ids = torch.randint(0, V, (4, 12), generator=torch.Generator().manual_seed(3))
    return Target(model=LM(**kw), batch=(ids, ids), causal=True)


def run(target: Target) -> ProbeResult:
    probe_registry()
    return P.execute("dependency", target, P.ProbeContext(seed=0, budget_s=60), {})


def test_healthy_heads_keep_causal_order():
    r = run(_target())
    assert r.status == "passed" and {"causal_ok", "batch_independent"} <= set(r.outcomes)
    assert "position_pattern" not in r.measurements  # measured only when the cut test leaks


@pytest.mark.parametrize("diagonal", [None, 2])  # mask missing; mask shifted by one
def test_missing_or_shifted_mask_is_a_superset(diagonal):
    r = run(_target(diagonal=diagonal))
    assert {"causal_leak", "causal_leak_superset"} <= set(r.outcomes), r.findings
    assert "positions_scrambled" not in r.outcomes
    assert r.measurements["position_pattern"] == "superset"


@pytest.mark.parametrize("layers", [1, 2])
def test_heads_split_by_reshape_scramble_positions(layers):
    r = run(_target(split="reshape", layers=layers))
    assert {"causal_leak", "positions_scrambled", "batch_independent"} <= set(r.outcomes), r.findings
    assert r.measurements["position_pattern"] == "scrambled"
    assert any("scrambled" in f.text for f in r.findings)


def test_pattern_rules():
    T = 6
    causal = {s: set(range(s, T)) for s in range(T)}  # output t reads every s <= t
    unmasked = {s: set(range(T)) for s in range(T)}
    window = {s: {t for t in range(T) if s <= t <= s + 1} | ({s - 1} if s else set()) for s in range(T)}
    assert position_pattern(unmasked)[0] == ["causal_leak_superset"]
    assert position_pattern(window)[0] == ["causal_leak_superset"]  # a local window that also reads s+1
    skipped = {s: set(v) for s, v in causal.items()}
    skipped[2].discard(4)  # output 4 reads 0, 1, 3 but not 2
    skipped[5].add(1)  # and a leak
    assert position_pattern(skipped)[0] == ["positions_scrambled"]
    no_self = {s: set(v) - {s} | {0} for s, v in causal.items()}
    assert position_pattern(no_self)[0] == ["positions_scrambled"]
    assert position_pattern(causal)[1]["future_reads"] == 0
