"""step_audit: a step that freezes part of a tensor by zeroing its gradient, with an optimizer that moves it anyway."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from debug_agent.schemas import Target

from .test_probes_by_design import run

VOCAB, NEW = 20, 19


class Prompted(nn.Module):
    """Textual-inversion style: an embedding table of which only the new token's row should learn."""

    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 8)
        self.head = nn.Linear(8, 8)
        self.head.requires_grad_(False)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.head(self.embed(ids).mean(1))  # (B, 8)


def step(model: nn.Module, batch: tuple, optimizer: torch.optim.Optimizer, loss_fn) -> torch.Tensor:
    ids, y = batch
    optimizer.zero_grad()
    loss = loss_fn(model(ids), y)
    loss.backward()
    model.embed.weight.grad[torch.arange(VOCAB) != NEW] = 0  # keep the old vocabulary fixed
    optimizer.step()
    return loss


def _target(optimizer) -> Target:
    torch.manual_seed(0)
    ids = torch.randint(0, VOCAB - 1, (8, 5))
    ids[:, 2] = NEW
    return Target(model=Prompted(), batch=(ids, torch.randn(8, 8)), loss_fn=F.mse_loss, train_step=step,
                  optimizer=optimizer)  # fmt: skip


@pytest.mark.parametrize(
    ("optimizer", "moved"),
    [
        (lambda p: torch.optim.AdamW(p, lr=1e-2, weight_decay=1e-2), True),  # BUG: decay moves the masked rows
        (lambda p: torch.optim.SGD(p, lr=1e-2, momentum=0.9), False),  # the first step's masked rows stay put
        (lambda p: torch.optim.Adam(p, lr=1e-2), False),
    ],
)
def test_masked_gradients_that_the_optimizer_still_moves(optimizer, moved: bool) -> None:
    result = run("step_audit", _target(optimizer))
    assert ("masked_grads_moved" in result.outcomes) == moved, result.summary
    # plain torch: two steps of the same step on a fresh copy move the masked rows exactly when flagged
    t = _target(optimizer)
    opt = t.optimizer([p for p in t.model.parameters() if p.requires_grad])
    before = t.model.embed.weight.detach().clone()
    for _ in range(2):
        step(t.model, t.batch, opt, F.mse_loss)
    old_rows = torch.arange(VOCAB) != NEW
    assert (not torch.equal(t.model.embed.weight.detach()[old_rows], before[old_rows])) == moved


def test_rows_no_gradient_reached_are_not_masked_by_the_user() -> None:
    """Embedding rows absent from the batch get zero gradient from autograd itself: decaying them is normal."""
    torch.manual_seed(0)
    ids = torch.randint(0, 5, (8, 5))  # rows 5.. never appear
    target = Target(model=Prompted(), batch=(ids, torch.randn(8, 8)), loss_fn=F.mse_loss,
                    optimizer=lambda p: torch.optim.AdamW(p, lr=1e-2, weight_decay=1e-2))  # fmt: skip
    result = run("step_audit", target)
    assert "masked_grads_moved" not in result.outcomes, result.summary


def test_a_scheduler_made_inside_the_step_still_wraps_the_optimizer() -> None:
    """StepLR wraps optimizer.step by its __func__: the audit's watch must not replace .step."""

    def with_scheduler(model: nn.Module, batch: tuple, optimizer: torch.optim.Optimizer, loss_fn) -> torch.Tensor:
        sched = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10)
        optimizer.zero_grad()
        loss = loss_fn(model(batch[0]), batch[1])
        loss.backward()
        optimizer.step()
        sched.step()
        return loss

    torch.manual_seed(0)
    target = Target(model=nn.Linear(4, 2), batch=(torch.randn(8, 4), torch.randn(8, 2)), loss_fn=F.mse_loss,
                    train_step=with_scheduler)  # fmt: skip
    for name in ("step_audit", "accum_scale"):
        assert run(name, target).status != "error", name
