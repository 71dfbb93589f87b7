"""A model that keeps a tensor from its last forward on itself (`self.last_attn = att`, still in the autograd
graph) cannot be deep-copied by torch; the probes' copies take such tensors detached, so a probe that clones
a model after a forward runs instead of failing with an internal error."""

from __future__ import annotations

import torch
from torch import nn

from debug_agent.schemas import Target

from .test_probes_blindspots import run


class KeepsAttention(nn.Module):
    def __init__(self, keep: bool | str) -> None:
        super().__init__()
        self.q, self.k, self.out, self.keep = nn.Linear(8, 8), nn.Linear(8, 8), nn.Linear(8, 3), keep
        self.last_attn: object = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # x: (B, T, 8)
        att = torch.softmax(self.q(x) @ self.k(x).transpose(1, 2) / 8**0.5, dim=-1)  # (B, T, T)
        if self.keep == "nested":
            self.last_attn = {"weights": (att, att.sum(-1))}  # a container of graph tensors
        elif self.keep:
            self.last_attn = att  # kept for plotting, graph and all
        return self.out(att @ x).mean(1)  # (B, 3)


def test_a_model_keeping_a_graph_tensor_is_copied_after_its_forward():
    g = torch.Generator().manual_seed(0)
    x, y = torch.randn(6, 5, 8, generator=g), torch.randint(0, 3, (6,), generator=g)
    for keep in (True, "nested", False):
        model = KeepsAttention(keep)
        model(x)  # the user ran it once: a graph tensor now sits on the module
        result = run("step_audit", Target(model=model, batch=(x, y), loss_fn=nn.CrossEntropyLoss()))
        assert result.status == "passed" and "params_updated" in result.outcomes, result.summary
