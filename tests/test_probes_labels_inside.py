"""label_offset on a model that computes its own loss from a `labels=` input and shifts inside (the
Hugging Face convention): labels shifted again by the user are found; unshifted labels pass."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import torch
from torch import nn
from torch.nn import functional as F

import debug_agent.probes as P
from debug_agent.isolation import probe_registry
from debug_agent.schemas import ProbeResult, Target

V = 20


@dataclass
class Output:
    logits: torch.Tensor
    loss: torch.Tensor | None = None


class HeadLM(nn.Module):
    """A tiny causal LM whose forward takes labels and returns an output object with the loss."""

    def __init__(self) -> None:
        super().__init__()
        self.emb = nn.Embedding(V, 16)
        self.rnn = nn.GRU(16, 16, batch_first=True)
        self.lm_head = nn.Linear(16, V)

    def forward(self, input_ids: torch.Tensor, labels: torch.Tensor | None = None) -> Output:
        h, _ = self.rnn(self.emb(input_ids))
        logits = self.lm_head(h)
        loss = None
        if labels is not None:  # shift inside, in float32, as library loss heads do
            shifted = logits[:, :-1].float()
            loss = F.cross_entropy(shifted.reshape(-1, V), labels[:, 1:].reshape(-1), ignore_index=-100)
        return Output(logits=logits, loss=loss)


def _target(labels_of) -> Target:
    torch.manual_seed(0)
    ids = torch.randint(0, V, (8, 16), generator=torch.Generator().manual_seed(1))
    labels = labels_of(ids)
    return Target(model=HeadLM(), batch=({"input_ids": ids, "labels": labels}, labels), loss_fn=lambda o, y: o.loss)


def run(target: Target, **options) -> ProbeResult:
    probe_registry()
    return P.execute("label_offset", target, P.ProbeContext(seed=0, budget_s=60), options)


def test_labels_shifted_before_a_model_that_shifts_again():
    r = run(_target(lambda ids: torch.cat([ids[:, 1:], ids[:, :1]], 1)), steps=0)
    assert r.status == "failed" and r.outcomes == ["labels_shifted_twice"], r.summary
    assert r.measurements["offset"] == 2


@pytest.mark.parametrize("steps", [0, 20])
def test_unshifted_labels_to_a_shifting_model_pass(steps):
    r = run(_target(lambda ids: ids.clone()), steps=steps)
    assert r.status == "passed" and r.outcomes == ["labels_next_token"], r.summary
