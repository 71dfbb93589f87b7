"""batch_stats: batches drawn from narrow groups (one episode each) next to shuffled ones, on the same model."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from debug_agent.schemas import Target

from .test_probes_by_design import run


class Encoder(nn.Module):
    def __init__(self, norm: bool = True) -> None:
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, padding=1)
        self.norm = nn.BatchNorm2d(8) if norm else nn.Identity()
        self.head = nn.Linear(8, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(F.relu(self.norm(self.conv(x))).mean((2, 3)))  # (B, 4)


def _episodes(n: int = 12, frames: int = 16) -> tuple[torch.Tensor, torch.Tensor]:
    """Frames grouped by episode; each episode has its own brightness offset."""
    g = torch.Generator().manual_seed(0)
    x = 0.3 * torch.randn(n, frames, 1, 8, 8, generator=g) + 2.0 * torch.randn(n, 1, 1, 1, 1, generator=g)
    y = torch.randint(0, 4, (n, frames), generator=g)
    return x.flatten(0, 1), y.flatten()  # (n * frames, 1, 8, 8), (n * frames,)


def _target(train_data, norm: bool = True) -> Target:
    x, y = _episodes()
    torch.manual_seed(0)  # the conv's weights decide how much of the offset reaches batch norm
    return Target(model=Encoder(norm), batch=(x[:16], y[:16]), loss_fn=nn.CrossEntropyLoss(), train_data=train_data)


def test_one_episode_per_batch_is_unrepresentative_but_shuffled_batches_are_fine() -> None:
    x, y = _episodes()
    per_episode = [(x[i : i + 16], y[i : i + 16]) for i in range(0, len(x), 16)]  # BUG: a batch is one episode
    shuffled = DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True, generator=torch.Generator().manual_seed(1))
    buggy, healthy = run("batch_stats", _target(per_episode)), run("batch_stats", _target(shuffled))
    assert buggy.status == "failed" and buggy.outcomes == ["batch_stats_unrepresentative"], buggy.summary
    assert buggy.measurements["within_batch_share"] < 0.4
    assert healthy.status == "passed" and healthy.measurements["within_batch_share"] > 0.8, healthy.summary


def test_no_verdict_without_batches_or_batch_norm() -> None:
    x, y = _episodes()
    per_episode = [(x[i : i + 16], y[i : i + 16]) for i in range(0, len(x), 16)]
    assert run("batch_stats", _target((x, y))).status == "not_applicable"  # an (X, Y) pair: batching unknown
    assert run("batch_stats", _target(per_episode, norm=False)).status == "not_applicable"


def test_the_users_random_state_is_untouched() -> None:
    x, y = _episodes()
    target = _target(DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True))
    torch.manual_seed(5)
    before = torch.random.get_rng_state()
    run("batch_stats", target)
    assert torch.equal(before, torch.random.get_rng_state())
