"""Two readings a real report needed: `step_audit`'s `frozen_stats_moved` (a norm layer frozen with
requires_grad=False but left in training mode keeps updating its running statistics, so the "frozen"
encoder computes something else after fine-tuning) and `nonfinite_trace`'s `log_of_zero` (the first Inf is
a log of a probability that underflowed to exactly 0: log(sigmoid(x)) where logsigmoid(x) stays finite).
Also the source cue for a mixup partner batch drawn with two permutations.

Each has a buggy twin and a healthy one (the probe rule); the models are plain torch.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from debug_agent.cues.training_rules import separate_shuffle
from debug_agent.engine import catalog
from debug_agent.schemas import Target

from .test_probes_blindspots import run


def _frozen_encoder_target(norm_in_eval: bool) -> Target:
    torch.manual_seed(0)
    encoder = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU())
    model = nn.Sequential(encoder, nn.Linear(16, 1))
    for p in encoder.parameters():
        p.requires_grad_(False)

    def train_step(model: nn.Module, batch: tuple, optimizer: torch.optim.Optimizer, loss_fn: object) -> torch.Tensor:
        model.train()
        if norm_in_eval:
            model[0].eval()  # the frozen part keeps its statistics
        x, y = batch
        loss = F.mse_loss(model(x).squeeze(-1), y)  # (B,) against (B,)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        return loss

    g = torch.Generator().manual_seed(1)
    x = 2.0 * torch.randn(32, 8, generator=g) + 1.0  # a new dataset: shifted statistics
    return Target(
        model=model,
        batch=(x, x[:, 0]),
        loss_fn=lambda out, y: F.mse_loss(out.squeeze(-1), y),
        optimizer=lambda ps: torch.optim.Adam([p for p in ps if p.requires_grad], lr=1e-2),
        train_step=train_step,
    )


def test_frozen_norm_left_training_moves_its_running_statistics():
    buggy = run("step_audit", _frozen_encoder_target(norm_in_eval=False))
    assert "frozen_stats_moved" in buggy.outcomes and buggy.status == "failed", buggy.summary
    healthy = run("step_audit", _frozen_encoder_target(norm_in_eval=True))
    assert "frozen_stats_moved" not in healthy.outcomes, healthy.summary
    # the freeze's direct test passed, and a frozen norm layer kept in eval mode is by design
    assert "frozen_stay_fixed" in healthy.outcomes and "eval_mode_in_step" not in healthy.outcomes
    assert catalog.load().get("optim.frozen_params_train").probes["step_audit"]["frozen_stats_moved"] > 0
    # without the user's own step, our textbook step trains every layer: no verdict on the statistics either way
    textbook = run("step_audit", _frozen_encoder_target(norm_in_eval=False).model_copy(update={"train_step": None}))
    assert not {"frozen_stats_moved", "frozen_stay_fixed"} & set(textbook.outcomes), textbook.summary


class _Scorer(nn.Module):
    def __init__(self, stable: bool) -> None:
        super().__init__()
        self.lin = nn.Linear(4, 1)
        self.stable = stable

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.lin(x).squeeze(-1)  # (B,) margins' raw scores


def _margin_target(stable: bool) -> Target:
    g = torch.Generator().manual_seed(0)
    x = torch.randn(64, 4, generator=g) * 3.0
    y = torch.sign(x[:, 0] + torch.randn(64, generator=g))  # +1 / -1, noisy: some margins stay negative

    def loss_fn(score: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        margin = score * y
        if stable:
            return -F.logsigmoid(margin).mean()
        return -torch.log(torch.sigmoid(margin)).mean()  # sigmoid underflows to 0 at margins below -104

    torch.manual_seed(0)
    return Target(
        model=_Scorer(stable), batch=(x, y), loss_fn=loss_fn, optimizer=lambda ps: torch.optim.SGD(ps, lr=20.0)
    )


def test_log_of_an_underflowed_probability_is_named():
    buggy = run("nonfinite_trace", _margin_target(stable=False))
    assert "log_of_zero" in buggy.outcomes, buggy.summary
    healthy = run("nonfinite_trace", _margin_target(stable=True))
    assert "log_of_zero" not in healthy.outcomes, healthy.summary
    cat = catalog.load()
    assert cat.get("numeric.unstable").probes["nonfinite_trace"]["log_of_zero"] > 0
    assert cat.get("optim.lr_too_high").probes["nonfinite_trace"]["log_of_zero"] < 0


MIXUP = '''
def mix(x, y, lam):
    idx_x = torch.randperm(x.size(0))
    idx_y = torch.randperm(x.size(0))
    return lam * x + (1 - lam) * x[idx_x], lam * y + (1 - lam) * y[idx_y]
'''


def test_mixup_partners_drawn_with_two_permutations():
    assert separate_shuffle("mix.py", MIXUP)
    one = MIXUP.replace("    idx_y = torch.randperm(x.size(0))\n", "").replace("idx_y", "idx_x")
    assert not separate_shuffle("mix.py", one)
