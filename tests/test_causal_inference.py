"""When the target does not say `causal`, causal order is tested only for models that are decoders by
declaration or by their next-token targets; an explicit value always wins."""

from __future__ import annotations

import pytest
import torch
from torch import nn
from torch.nn import functional as F

from debug_agent.isolation._causal import infer_causal
from debug_agent.isolation.local import LocalRunner
from debug_agent.schemas import ProbeRequest, Target

V, T = 40, 12


class Decoder(nn.Module):
    """A one-layer transformer LM; `masked` decides whether position t can see later positions."""

    def __init__(self, masked: bool) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.masked = masked
        self.tok = nn.Embedding(V, 16)
        self.block = nn.TransformerEncoderLayer(16, nhead=2, dim_feedforward=32, dropout=0.0, batch_first=True)
        self.head = nn.Linear(16, V)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        mask = nn.Transformer.generate_square_subsequent_mask(tokens.shape[1]) if self.masked else None
        return self.head(self.block(self.tok(tokens), src_mask=mask, is_causal=self.masked))  # (B, T, V)


class TinyForCausalLM(Decoder):
    """Named the way Hugging Face names its causal language models."""


def next_token_loss(logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return F.cross_entropy(logits.reshape(-1, V), y.reshape(-1))


def lm_target(model: nn.Module, *, shifted: bool, causal: bool | None = None) -> Target:
    seq = torch.randint(0, V, (4, T + 1), generator=torch.Generator().manual_seed(1))
    x, y = (seq[:, :-1], seq[:, 1:]) if shifted else (seq[:, :-1], seq[:, :-1])
    return Target(model=model, batch=(x, y), loss_fn=next_token_loss, causal=causal)


def test_next_token_targets_make_the_target_causal():
    target = lm_target(Decoder(masked=True), shifted=True)
    assert "shifted by one" in infer_causal(target)
    assert target.causal is True


def test_a_decoder_class_name_makes_the_target_causal():
    target = lm_target(TinyForCausalLM(masked=True), shifted=False)
    assert "causal language model" in infer_causal(target)


def test_targets_equal_to_inputs_alone_do_not():
    """An autoencoder over tokens also has targets equal to its inputs: not enough to assume a decoder."""
    target = lm_target(Decoder(masked=False), shifted=False)
    assert infer_causal(target) is None
    assert target.causal is False


@pytest.mark.parametrize("explicit", [True, False])
def test_an_explicit_value_wins(explicit):
    target = lm_target(TinyForCausalLM(masked=True), shifted=True, causal=explicit)
    assert infer_causal(target) is None
    assert target.causal is explicit


def test_a_float_regression_target_is_never_causal():
    x = torch.randn(8, 5)
    target = Target(model=nn.Linear(5, 5), batch=(x, x.roll(-1, 1)), loss_fn=F.mse_loss)
    assert infer_causal(target) is None and target.causal is False


@pytest.mark.parametrize(("masked", "status"), [(True, "passed"), (False, "failed")])
def test_an_undeclared_decoder_gets_its_causal_test(masked, status):
    """End to end through the worker-side loader: the missing mask is found although nobody said causal."""
    runner = LocalRunner(lm_target(Decoder(masked=masked), shifted=True))
    assert runner.start().info.causal is True
    result = runner.run(ProbeRequest(name="dependency"))
    assert result.status == status, result.summary
    assert ("causal_leak" if not masked else "causal_ok") in result.outcomes
