"""dying_units: a ReLU regression head that dies while training, next to the same head without the ReLU."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from debug_agent.schemas import Target

from .test_probes_by_design import run


class Counter(nn.Module):
    """Regresses a non-negative count; `relu_head` clamps the prediction with a final ReLU."""

    def __init__(self, relu_head: bool) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.body = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 1))
        self.relu_head = relu_head

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (B, 6) -> (B,)
        y = self.body(x)  # (B, 1)
        return (F.relu(y) if self.relu_head else y).squeeze(-1)


def _target(relu_head: bool) -> Target:
    g = torch.Generator().manual_seed(2)
    x = torch.randn(256, 6, generator=g)
    # Sparse counts (0 for nine rows in ten, as in a density map): the head is pushed below zero everywhere.
    y = (torch.rand(256, generator=g) < 0.1).float() * (1 + torch.rand(256, generator=g))
    return Target(
        model=Counter(relu_head),
        batch=(x[:32], y[:32]),
        loss_fn=F.mse_loss,
        optimizer=lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9),
        train_data=(x, y),
    )


@pytest.mark.parametrize(("relu_head", "outcome"), [(True, "units_die_in_training"), (False, "units_stay_alive")])
def test_units_that_die_while_training_are_found(relu_head, outcome):
    result = run("dying_units", _target(relu_head))
    assert result.outcomes == [outcome], result.measurements
    if relu_head:  # plain torch: the trained head outputs 0 for every example, with no gradient left
        t = _target(True)
        opt = t.optimizer(t.model.parameters())
        for i in range(0, 256, 32):
            opt.zero_grad()
            F.mse_loss(t.model(t.train_data[0][i : i + 32]), t.train_data[1][i : i + 32]).backward()
            opt.step()
        assert torch.count_nonzero(t.model(t.batch[0])) == 0


class Scores(nn.Module):
    """Class scores from one Linear; `relu_scores` rectifies them (a ReLU left after the last layer)."""

    def __init__(self, relu_scores: bool) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.body = nn.Sequential(nn.Linear(8, 32), nn.ReLU())
        self.fc = nn.Linear(32, 10)
        with torch.no_grad():
            self.fc.bias[:3] = -20.0  # three of the ten scores are 0 for every input from the start
        self.relu_scores = relu_scores

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (B, 8) -> (B, 10)
        s = self.fc(self.body(x))
        return F.relu(s) if self.relu_scores else s


@pytest.mark.parametrize(("relu_scores", "outcome"), [(True, "units_die_in_training"), (False, "units_stay_alive")])
def test_a_layer_partly_dead_at_the_start_that_dies_is_found(relu_scores, outcome):
    g = torch.Generator().manual_seed(4)
    x, y = 5 * torch.randn(256, 8, generator=g), torch.randint(0, 10, (256,), generator=g)
    t = Target(
        model=Scores(relu_scores), batch=(x[:32], y[:32]), loss_fn=F.cross_entropy,
        optimizer=lambda p: torch.optim.SGD(p, lr=0.5, momentum=0.9), train_data=(x, y),
    )  # fmt: skip
    result = run("dying_units", t)
    assert result.outcomes == [outcome], result.measurements
    if relu_scores:  # 3 of 10 units dead at the start: more than `alive`, so only the rise shows the death
        assert 0.25 < max(result.measurements["dead_before"].values()) < 0.5


def test_a_model_without_rectifiers_is_not_judged():
    t = _target(False)
    t = t.model_copy(update={"model": nn.Sequential(nn.Linear(6, 1), nn.Flatten(0))})
    assert run("dying_units", t).status == "not_applicable"



class Bottleneck(nn.Module):
    """A classifier through a 4-unit ReLU code; with this seed 3 of the 4 code units are dead at the start."""

    def __init__(self) -> None:
        super().__init__()
        torch.manual_seed(3)
        self.enc, self.head = nn.Linear(16, 4), nn.Linear(4, 6)

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (B, 16) -> (B, 6)
        code = torch.relu(self.enc(x))  # (B, 4)
        return self.head(code)


@pytest.mark.parametrize(("lr", "dies"), [(0.3, True), (1e-3, False)])
def test_a_layer_partly_alive_then_wholly_dead_died_in_training(lr: float, dies: bool):
    """3 of 4 units dead at the start (more than `alive`), all 4 after: the last live path closed."""
    g = torch.Generator().manual_seed(0)
    y = torch.randint(0, 6, (128,), generator=g)
    x = torch.rand(6, 16, generator=g)[y] + 0.3 * torch.rand(128, 16, generator=g)
    t = Target(model=Bottleneck(), batch=(x, y), loss_fn=F.cross_entropy,
               optimizer=lambda p: torch.optim.Adam(p, lr=lr))  # fmt: skip
    r = run("dying_units", t)
    assert list(r.measurements["dead_before"].values()) == [0.75]
    assert ("units_die_in_training" in r.outcomes) is dies, r.measurements
