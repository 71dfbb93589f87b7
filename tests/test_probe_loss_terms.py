"""loss_terms: a multi-term loss whose terms sit on wildly different scales, next to healthy multi-term losses."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from debug_agent.schemas import Target

from .test_probes_by_design import VAE, elbo, run


class TwoHeads(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Linear(8, 32)
        self.cls, self.reg = nn.Linear(32, 3), nn.Linear(32, 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = F.relu(self.body(x))  # (B, 32), shared by both heads
        return self.cls(h), self.reg(h).squeeze(-1)  # (B, 3), (B,)


def _multitask(scale: float, weight: float = 1.0) -> Target:
    torch.manual_seed(0)
    x = torch.randn(64, 8)
    y = torch.stack([(x[:, 0] > 0).float() + (x[:, 1] > 0).float(), scale * x[:, 2] + 4 * scale], 1)

    def loss(out: tuple[torch.Tensor, torch.Tensor], t: torch.Tensor) -> torch.Tensor:
        logits, r = out
        return F.cross_entropy(logits, t[:, 0].long()) + weight * F.mse_loss(r, t[:, 1])

    return Target(model=TwoHeads(), batch=(x, y), loss_fn=loss)


def test_a_regression_term_in_raw_units_drowns_the_classification_term() -> None:
    buggy = run("loss_terms", _multitask(scale=5000.0))  # BUG: the regression target in raw units
    healthy = run("loss_terms", _multitask(scale=1.0))
    assert buggy.status == "failed" and buggy.outcomes == ["loss_terms_imbalanced"], buggy.summary
    assert buggy.findings[0].where and buggy.measurements["gradient_ratio"] >= 100
    assert healthy.status == "passed" and healthy.outcomes == ["loss_terms_balanced"], healthy.summary


def test_a_term_weighted_down_on_purpose_is_a_choice() -> None:
    result = run("loss_terms", _multitask(scale=1.0, weight=1e-4))
    assert result.status == "passed", result.summary


def test_weight_regularisers_and_single_losses_are_not_terms() -> None:
    torch.manual_seed(0)
    model = nn.Linear(8, 3)
    x, y = torch.randn(32, 8), torch.randint(0, 3, (32,))

    def with_l2(out: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(out, t) + sum(p.pow(2).sum() for p in model.parameters())

    regularised = run("loss_terms", Target(model=model, batch=(x, y), loss_fn=with_l2))
    single = run("loss_terms", Target(model=nn.Linear(8, 3), batch=(x, y), loss_fn=nn.CrossEntropyLoss()))
    assert regularised.status == "not_applicable" and single.status == "not_applicable"


def test_a_vae_reconstruction_and_kl_are_not_called_imbalanced() -> None:
    torch.manual_seed(0)
    x = torch.randn(32, 20)
    result = run("loss_terms", Target(model=VAE(False), batch=(x, x), loss_fn=elbo))
    assert result.status == "passed", result.summary


class Translator(nn.Module):
    """A generator with a fixed semantic head on its output; `cut` detaches the output on its way to the head."""

    def __init__(self, cut: bool) -> None:
        super().__init__()
        self.cut = cut
        self.g, self.sem = nn.Linear(8, 8), nn.Linear(8, 3)
        self.sem.requires_grad_(False)  # a pretrained judge, frozen on purpose

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        fake = x + self.g(x)  # (B, 8)
        return fake, self.sem(fake.detach() if self.cut else fake)  # (B, 8), (B, 3)


def _translation(cut: bool) -> Target:
    torch.manual_seed(0)
    x, y = torch.randn(32, 8), torch.randint(0, 3, (32,))

    def loss(out: tuple[torch.Tensor, torch.Tensor], t: torch.Tensor) -> torch.Tensor:
        fake, sem = out
        return 0.1 * F.l1_loss(fake, x) + F.cross_entropy(sem, t)

    return Target(model=Translator(cut), batch=(x, y), loss_fn=loss)


def test_a_loss_term_that_reads_a_detached_output_trains_nothing() -> None:
    buggy = run("loss_terms", _translation(cut=True))  # BUG: the semantic term's path to the generator is cut
    healthy = run("loss_terms", _translation(cut=False))
    assert buggy.status == "failed" and buggy.outcomes == ["loss_term_without_gradient"], buggy.summary
    assert buggy.findings[0].where and "0.1 * F.l1_loss" in (buggy.findings[0].code or "")
    assert healthy.status != "failed" and "loss_term_without_gradient" not in healthy.outcomes, healthy.summary


def test_a_teacher_output_detached_beside_a_live_student_is_not_a_dead_term() -> None:
    """Distillation: the teacher's logits carry no gradient, but the term also reads the student's."""
    torch.manual_seed(0)
    x = torch.randn(16, 8)
    student, teacher = nn.Linear(8, 4), nn.Linear(8, 4)

    class Pair(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.student, self.teacher = student, teacher

        def forward(self, inp: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            with torch.no_grad():
                t = self.teacher(inp)
            return self.student(inp), t

    def loss(out: tuple[torch.Tensor, torch.Tensor], y: torch.Tensor) -> torch.Tensor:
        s, t = out
        kl = F.kl_div(F.log_softmax(s, -1), F.softmax(t, -1), reduction="batchmean")
        return kl + F.cross_entropy(s, y)

    result = run("loss_terms", Target(model=Pair(), batch=(x, torch.randint(0, 4, (16,))), loss_fn=loss))
    assert "loss_term_without_gradient" not in result.outcomes, result.summary


def _dice_target(raw_units: bool) -> Target:
    torch.manual_seed(0)
    x = torch.randn(8, 1, 12, 12)
    mask = (x > 0.5).float()

    def dice(logits: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        p = torch.sigmoid(logits)
        inter = (p * t).sum()  # a ratio: numerator and denominator are one objective, not two terms
        soft_dice = 1 - (2 * inter + 1.0) / (p.sum() + t.sum() + 1.0)
        return soft_dice + (1000.0 * (p - t).pow(2).sum() if raw_units else 0.0)  # BUG: a summed, unscaled term

    return Target(model=nn.Conv2d(1, 1, 3, padding=1), batch=(x, mask), loss_fn=dice)


def test_the_parts_of_a_dice_ratio_are_not_loss_terms_but_a_term_beside_it_is() -> None:
    ratio_only = run("loss_terms", _dice_target(raw_units=False))
    beside = run("loss_terms", _dice_target(raw_units=True))
    assert ratio_only.status == "not_applicable", ratio_only.summary
    assert beside.status == "failed" and beside.outcomes == ["loss_terms_imbalanced"], beside.summary
    assert len(beside.measurements["terms"]) == 2
