"""How `eval_fn` is called: with the batch as the protocol says, with the inputs alone when its second parameter
names them (`ids`) or when it unpacks the inputs (`q, d = batch`) and the batch call fails; a helper that fails
either way shows its own first error."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from debug_agent.probes._eval_call import call_eval_fn

MODEL = nn.Linear(3, 2)
X, Y = torch.randn(4, 3), torch.tensor([0, 1, 0, 1])


def by_batch(model: nn.Module, batch: tuple) -> torch.Tensor:
    inputs, _ = batch
    return model(inputs)


def by_ids(model: nn.Module, ids: torch.Tensor) -> torch.Tensor:
    return model(ids)


def unpacks_inputs(model: nn.Module, batch: tuple) -> torch.Tensor:
    left, right = batch  # the inputs are a (left, right) pair
    return model(left) - model(right)


def broken(model: nn.Module, batch: tuple) -> torch.Tensor:
    raise ValueError("the helper's own bug")


def test_the_batch_the_named_inputs_and_unpacked_inputs_are_each_called_their_way():
    assert torch.equal(call_eval_fn(by_batch, MODEL, (X, Y)), MODEL(X))
    assert torch.equal(call_eval_fn(by_ids, MODEL, (X, Y)), MODEL(X))
    pair = ((X, X * 2), Y)
    assert torch.equal(call_eval_fn(unpacks_inputs, MODEL, pair), MODEL(X) - MODEL(X * 2))
    assert torch.equal(call_eval_fn(unpacks_inputs, MODEL, pair), MODEL(X) - MODEL(X * 2))  # remembered


def test_a_helper_that_fails_either_way_shows_its_first_error():
    with pytest.raises(ValueError, match="the helper's own bug"):
        call_eval_fn(broken, MODEL, (X, Y))
