"""Buggy and healthy twins for the probes that used to raise false alarms on real models (issue 11):
grad_check, step_audit, dependency (sequence-first), lr_range and activations; and reproducible plans."""

from __future__ import annotations

import json
import math

import pytest
import torch
import torch.nn.functional as F
from torch import nn

import debug_agent.probes as P
from debug_agent.engine.pipeline import AskOptions, plan_units
from debug_agent.isolation import probe_registry
from debug_agent.probes.lr_range import LRRangeOptions, _band, _verdict
from debug_agent.schemas import ProbeResult, Target

from .conftest import report_of
from .models import resnet_target, seq_first_encoder_target, seq_first_target, seq_target


def run(name: str, target: Target, **options) -> ProbeResult:
    probe_registry()
    return P.execute(name, target, P.ProbeContext(seed=0, budget_s=120), options)


def classify(model: nn.Module, x: torch.Tensor, classes: int = 3, **extra) -> Target:
    torch.manual_seed(1)
    y = torch.randint(0, classes, (x.shape[0],))
    return Target(model=model, batch=(x, y), loss_fn=nn.CrossEntropyLoss(), **extra)


# --- grad_check -----------------------------------------------------------------------------------


class PoolCNN(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.c1, self.c2 = nn.Conv2d(3, 8, 3, padding=1), nn.Conv2d(8, 8, 3, padding=1)
        self.fc = nn.Linear(8 * 2 * 2, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        return self.fc(F.max_pool2d(F.relu(self.c2(x)), 2).flatten(1))


class Head(nn.Module):
    """MLP whose head casts to float32 (like library heads computing the loss in float32), or drops out."""

    def __init__(self, mode: str) -> None:
        super().__init__()
        self.mode = mode
        self.a, self.b = nn.Linear(10, 32), nn.Linear(32, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.tanh(self.a(x))
        if self.mode == "dropout":  # always on, even in eval mode (MC dropout)
            h = F.dropout(h, 0.3, training=True)
        out = self.b(h)
        if self.mode == "hook" and h.requires_grad:  # a hook that edits the gradient: a hand-written backward
            h.register_hook(lambda g: 3 * g)
        return out.float() if self.mode == "float32" else out


class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):  # noqa: ANN001, ANN205
        return x * 2

    @staticmethod
    def backward(ctx, g):  # noqa: ANN001, ANN205
        return g  # wrong: the factor 2 is missing


class CustomNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.a, self.b = nn.Linear(10, 16), nn.Linear(16, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.b(Twice.apply(torch.tanh(self.a(x))))


@pytest.mark.parametrize(
    "make",
    [
        lambda: classify(PoolCNN(), torch.randn(8, 3, 8, 8)),
        lambda: classify(Head("float32"), torch.randn(32, 10)),
        lambda: classify(Head("dropout"), torch.randn(32, 10)),
    ],
    ids=["relu_maxpool_cnn", "float32_cast_in_forward", "dropout_in_forward"],
)
def test_grad_check_healthy_models_do_not_fail(make):
    r = run("grad_check", make())
    assert r.status != "failed", r.summary
    assert "grads_mismatch" not in r.outcomes
    assert "custom" not in r.summary.lower() or "no hand-written" in r.summary


def test_grad_check_explains_precision_without_blaming_a_backward():
    r = run("grad_check", classify(Head("float32"), torch.randn(32, 10)))
    assert r.status == "inconclusive"
    assert r.measurements["low_precision"] and r.measurements["handwritten_backward"] == []
    assert "float32" in r.summary


@pytest.mark.parametrize("mode", ["custom_function", "gradient_hook"])
def test_grad_check_fails_a_wrong_hand_written_backward(mode):
    model = CustomNet() if mode == "custom_function" else Head("hook")
    r = run("grad_check", classify(model, torch.randn(32, 10)))
    assert r.status == "failed" and "grads_mismatch" in r.outcomes
    assert r.measurements["handwritten_backward"]
    assert ("custom_function_mismatch" in r.outcomes) == (mode == "custom_function")


# --- step_audit -----------------------------------------------------------------------------------


def mlp_step_target(zero_grad: bool, clip: bool = True, scaler: bool = False) -> Target:
    sc = torch.amp.GradScaler("cpu", init_scale=1024.0) if scaler else None

    def train_step(model, batch, optimizer, loss_fn):
        inputs, targets = batch
        if zero_grad:
            optimizer.zero_grad()
        loss = loss_fn(model(inputs), targets)
        if sc is not None:
            sc.scale(loss).backward()
            sc.unscale_(optimizer)
        else:
            loss.backward()
        if clip:
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        if sc is not None:
            sc.step(optimizer)
            sc.update()
        else:
            optimizer.step()
        return loss.detach()

    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))
    return classify(
        model,
        torch.randn(64, 10),
        classes=2,
        train_step=train_step,
        optimizer=lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9),
    )


@pytest.mark.parametrize("scaler", [False, True], ids=["clip", "clip_and_gradscaler"])
def test_step_audit_finds_missing_zero_grad_under_clipping(scaler):
    r = run("step_audit", mlp_step_target(zero_grad=False, scaler=scaler))
    assert r.status == "failed" and "grads_accumulate" in r.outcomes
    assert "cleared" not in r.summary


@pytest.mark.parametrize("scaler", [False, True], ids=["clip", "clip_and_gradscaler"])
def test_step_audit_passes_healthy_twin_with_clipping(scaler):
    r = run("step_audit", mlp_step_target(zero_grad=True, scaler=scaler))
    assert r.status == "passed" and "grads_cleared" in r.outcomes
    assert r.summary.startswith("gradients cleared")


def test_step_audit_without_a_train_step_does_not_vouch_for_the_users_zero_grad():
    """Our textbook step clears gradients by construction: it reports `textbook_step`, never `grads_cleared`."""
    t = mlp_step_target(zero_grad=True).model_copy(update={"train_step": None})
    r = run("step_audit", t)
    assert "textbook_step" in r.outcomes and "grads_cleared" not in r.outcomes, r.outcomes
    assert r.status == "passed" and r.summary.startswith("zero_grad not tested")


def test_step_audit_never_summarises_an_unclear_check_as_passed():
    from debug_agent.probes.step_audit import _summary

    text = _summary(["params_updated", "grad_path_ok"], [], "inconclusive")
    assert "gradients cleared" not in text and "could not tell" in text


# --- dependency on sequence-first models -----------------------------------------------------------


@pytest.mark.parametrize(
    "make", [seq_first_target, seq_first_encoder_target], ids=["lstm_seq_first", "encoder_seq_first"]
)
def test_dependency_follows_rows_through_sequence_first_models(make):
    r = run("dependency", make())
    assert r.status == "passed" and r.outcomes == ["batch_independent"], r.summary
    assert r.measurements["output_batch_axis"] == 1


def test_dependency_unmapped_axis_is_inconclusive_not_evidence():
    r = run("dependency", seq_first_target(bug=True))  # rows scrambled on the way in: no axis follows them
    assert r.status in ("failed", "inconclusive")
    assert "input_grad_none" not in r.outcomes
    if r.status == "inconclusive":
        assert r.outcomes == [] and "untested" in r.summary


def test_dependency_still_finds_the_reshape_scramble():
    r = run("dependency", seq_target(bug=True))
    assert r.status == "failed" and "batch_leak_structured" in r.outcomes


# --- lr_range -------------------------------------------------------------------------------------


def test_lr_range_resnet_with_sgd_0_1_is_not_too_high():
    r = run("lr_range", resnet_target(lr=0.1), steps=40)
    assert "lr_above_band" not in r.outcomes, r.summary
    assert r.status == "passed"


def test_lr_range_resnet_at_a_diverging_rate_is_too_high():
    r = run("lr_range", resnet_target(lr=30.0), steps=40)
    assert r.status == "failed" and r.outcomes == ["lr_above_band"]


def test_lr_range_verdict_agrees_with_its_curve():
    """Loss falls steeply early, stays near its best up to 1, diverges at 5: 0.1 sits in the band."""
    lrs = [10 ** (-6 + 0.125 * k) for k in range(56)]
    losses = [2.3 if lr < 1e-5 else 0.1 if lr < 1e-3 else 0.05 for lr in lrs]
    losses = [v if lr < 5 else 9.0 for lr, v in zip(lrs, losses, strict=True)]
    band = _band(lrs, losses)
    assert band is not None and band["high"] >= 0.1
    r = _verdict(band, 0.1, 0.05, LRRangeOptions(), {})
    assert r.outcomes == ["lr_in_band"]


# --- activations ----------------------------------------------------------------------------------


class Act(nn.Module):
    def __init__(self, act: nn.Module | None, shift: float = 0.0, functional: bool = False) -> None:
        super().__init__()
        self.a, self.b = nn.Linear(10, 32), nn.Linear(32, 3)
        self.act, self.shift, self.functional = act, shift, functional

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.a(x) - self.shift
        if self.act is not None:
            h = F.silu(h) if self.functional else self.act(h)
        return self.b(h)


@pytest.mark.parametrize(
    "act,functional", [(nn.GELU(), False), (nn.SiLU(), True), (nn.Mish(), False), (nn.ELU(), False)]
)
def test_activations_smooth_rectifiers_dead_and_healthy(act, functional):
    healthy = run("activations", classify(Act(act, functional=functional), torch.randn(32, 10)))
    dead = run("activations", classify(Act(act, shift=20.0, functional=functional), torch.randn(32, 10)))
    assert healthy.status == "passed" and "healthy_activations" in healthy.outcomes
    assert dead.status == "failed" and "dead_units" in dead.outcomes


class Recurrent(nn.Module):
    def __init__(self, cell: type[nn.Module], scale: float) -> None:
        super().__init__()
        self.rnn, self.head, self.scale = cell(10, 16, batch_first=True), nn.Linear(16, 3), scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out, _ = self.rnn(x * self.scale)
        return self.head(out[:, -1])


@pytest.mark.parametrize("cell", [nn.LSTM, nn.GRU])
def test_activations_recurrent_gates(cell):
    healthy = run("activations", classify(Recurrent(cell, 1.0), torch.randn(16, 12, 10)))
    saturated = run("activations", classify(Recurrent(cell, 1000.0), torch.randn(16, 12, 10)))
    assert healthy.status == "passed" and healthy.measurements["layers_seen"] >= 3
    assert "saturated_units" in saturated.outcomes and "gate" in saturated.summary


def test_activations_zero_sites_is_not_evidence():
    r = run("activations", classify(Act(None), torch.randn(32, 10)))
    assert r.status == "inconclusive" and "healthy_activations" not in r.outcomes
    assert "untested" in r.summary


# --- deterministic plans --------------------------------------------------------------------------


def test_plan_size_comes_from_counted_work_not_timings():
    opts = AskOptions(budget_s=60)
    assert plan_units(None, opts) == opts.plan_units
    assert plan_units(1e3, opts) == opts.max_units  # a tiny model: everything useful fits
    assert plan_units(1e12, opts) == opts.min_units  # a huge one: the floor
    assert plan_units(8.5e10, opts) == plan_units(8.5e10, opts)


TIMING_KEYS = {"seconds", "cost_units", "unit_seconds", "worker_peak_rss_mb", "rss_mb"}


def _strip(x):
    if isinstance(x, dict):
        return {k: _strip(v) for k, v in x.items() if k not in TIMING_KEYS}
    if isinstance(x, list):
        return [_strip(v) for v in x]
    return x


def test_same_inputs_give_the_same_report_apart_from_timings(run_cli):
    args = ("ask", "--example", "missing_zero_grad", "--format", "json", "--offline", "--quiet")
    first, second = (_strip(report_of(run_cli(*args))) for _ in range(2))
    assert [p["name"] for p in first["probes"]] == [p["name"] for p in second["probes"]]
    assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)


# --- grad_check: a gradient reversal layer is deliberate, a wrong backward is not ----------------


class _ReverseGrad(torch.autograd.Function):
    """Identity forward; backward hands back the gradient scaled by -lambda (domain-adversarial training)."""

    @staticmethod
    def forward(ctx, features, lam):
        ctx.lam = lam
        return features.clone()

    @staticmethod
    def backward(ctx, upstream):
        return upstream.neg().mul(ctx.lam), None


class _WrongSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return -2 * x * grad  # wrong sign: a negative multiple of the gradient, but not of the incoming one


class _DomainNet(nn.Module):
    def __init__(self, fn) -> None:
        super().__init__()
        self.features, self.head, self.fn = nn.Linear(6, 8), nn.Linear(8, 3), fn

    def forward(self, x):
        f = torch.tanh(self.features(x))
        return self.head(self.fn(f))


def _domain_target(fn) -> Target:
    torch.manual_seed(0)
    batch = ((torch.randn(8, 6),), torch.randint(0, 3, (8,)))
    return Target(model=_DomainNet(fn), batch=batch, loss_fn=nn.CrossEntropyLoss())


def test_grad_check_calls_a_gradient_reversal_deliberate():
    r = run("grad_check", _domain_target(lambda f: _ReverseGrad.apply(f, 0.3)))
    assert r.status == "passed" and r.outcomes == ["gradient_reversal"], r.summary
    assert r.measurements["gradient_reversals"] == {"_ReverseGrad": -0.3}


def test_grad_check_still_fails_a_wrong_hand_written_backward():
    r = run("grad_check", _domain_target(_WrongSquare.apply))
    assert r.status == "failed" and "custom_function_mismatch" in r.outcomes, r.summary


# --- activations: a single rectified output unit that is 0 for every example --------------------


class _ReluHead(nn.Module):
    def __init__(self, bias: float) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 8), nn.ReLU())
        self.out = nn.Linear(8, 1)
        nn.init.constant_(self.out.bias, bias)
        self.act = nn.ReLU()  # a count cannot be negative

    def forward(self, x):
        return self.act(self.out(self.body(x)))  # (B, 1)


def _relu_head_target(bias: float) -> Target:
    torch.manual_seed(0)
    with torch.no_grad():
        model = _ReluHead(bias)
        model.out.weight.mul_(0.01)  # the bias decides the sign of the output
    return Target(model=model, batch=((torch.rand(32, 4),), torch.rand(32, 1)), loss_fn=nn.L1Loss())


def test_activations_finds_a_dead_single_output_unit():
    r = run("activations", _relu_head_target(-1.0))
    assert r.status == "failed" and "dead_units" in r.outcomes, r.summary


def test_activations_passes_a_live_single_output_unit():
    r = run("activations", _relu_head_target(0.5))
    assert "dead_units" not in r.outcomes, r.summary


# --- mode_audit: state written for inspection vs state read back ---------------------------------


class _KeepsLastScores(nn.Module):
    """Stores its last attention-like scores for plotting; never reads them."""

    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.last_scores = None

    def forward(self, x):
        scores = torch.softmax(self.lin(x), dim=-1)  # (B, 4)
        self.last_scores = scores.detach()
        return scores


class _CarriesMean(nn.Module):
    """Adds the previous call's mean input: state that crosses calls."""

    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.prev = torch.zeros(4)

    def forward(self, x):
        out = self.lin(x + self.prev)
        self.prev = x.mean(0).detach()
        return out


def test_mode_audit_lets_state_that_is_only_written_pass():
    r = run("mode_audit", Target(model=_KeepsLastScores(), batch=((torch.randn(6, 4),), torch.zeros(6))))
    assert r.status == "passed" and r.outcomes == ["state_written_not_read"], r.summary


def test_mode_audit_still_fails_state_that_is_read_back():
    r = run("mode_audit", Target(model=_CarriesMean(), batch=((torch.randn(6, 4),), torch.zeros(6))))
    assert r.status == "failed" and "state_mutated_in_forward" in r.outcomes, r.summary


# --- lr_range: a fine-tuning rate on a pretrained start gets no verdict --------------------------


def _tiny_roberta_target(pretrained_from: str) -> Target:
    transformers = pytest.importorskip("transformers")
    torch.manual_seed(0)
    cfg = transformers.RobertaConfig(
        vocab_size=120, hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
        max_position_embeddings=40, num_labels=3, pad_token_id=1,
    )
    model = transformers.RobertaForSequenceClassification(cfg)
    model.config._name_or_path = pretrained_from  # what from_pretrained records; "" for a model built from a config
    ids = torch.randint(3, 120, (8, 12))
    return Target(
        model=model,
        batch=(({"input_ids": ids}), torch.randint(0, 3, (8,))),
        loss_fn=lambda out, y: F.cross_entropy(out.logits, y),
        optimizer=lambda p: torch.optim.AdamW(p, lr=5e-5),
    )


@pytest.mark.slow
def test_lr_range_gives_no_verdict_on_a_fine_tuning_rate_from_pretrained_weights():
    r = run("lr_range", _tiny_roberta_target("org/some-checkpoint"))
    assert r.status == "inconclusive" and r.outcomes == [], r.summary
    assert r.measurements["pretrained_from"] == "org/some-checkpoint"


@pytest.mark.slow
def test_lr_range_still_calls_the_same_rate_low_on_a_model_built_from_scratch():
    r = run("lr_range", _tiny_roberta_target(""))
    assert r.status == "failed" and r.outcomes == ["lr_below_band"], r.summary


class _HiddenOut(nn.Module):
    """Stores its last hidden state; only an evaluation helper feeds it back in."""

    def __init__(self) -> None:
        super().__init__()
        self.cell = nn.GRUCell(4, 4)
        self.last_hidden = None

    def forward(self, x, hidden=None):
        h = self.cell(x, hidden)  # (B, 4)
        self.last_hidden = h.detach()
        return h


def _eval_carrying_hidden():
    """An eval_fn that passes the previous batch's hidden state into the next call."""
    kept: dict = {}

    def eval_fn(model, batch):
        model.eval()
        with torch.no_grad():
            out = model(batch[0][0], kept.get("h"))
        kept["h"] = model.last_hidden
        return out

    return eval_fn


def test_mode_audit_fails_state_handed_back_by_the_eval_fn():
    torch.manual_seed(0)
    target = Target(
        model=_HiddenOut(), batch=((torch.randn(6, 4),), torch.zeros(6)), eval_fn=_eval_carrying_hidden()
    )
    r = run("mode_audit", target)
    assert r.status == "failed" and "state_mutated_in_forward" in r.outcomes, r.summary
    assert "state_written_not_read" not in r.outcomes


def _mean_of_chunk_means(out, y, chunk=4):
    """Accuracy as a mean of per-chunk means: unequal last chunk, so not an average over examples."""
    hits = (out.argmax(1) == y).float()
    return sum(hits[i : i + chunk].mean().item() for i in range(0, len(y), chunk)) / math.ceil(len(y) / chunk)


def _plain_accuracy(out, y):
    return (out.argmax(1) == y).float().mean().item()


@pytest.mark.parametrize(("metric", "status"), [(_mean_of_chunk_means, "failed"), (_plain_accuracy, "passed")])
def test_metric_audit_reorders_rows_to_find_a_metric_that_is_not_an_average(metric, status):
    torch.manual_seed(0)
    x, y = torch.randn(10, 3), torch.randint(0, 3, (10,))
    r = run("metric_audit", Target(model=nn.Linear(3, 3), batch=(x, y), metric_fn=metric))
    assert r.status == status, r.summary
    assert ("metric_order_dependent" in r.outcomes) == (status == "failed")


def _percent_by_floor_division(out, y):
    """Percent correct from an integer count floor-divided by the batch size: 0 unless every row is right."""
    return (out.argmax(1) == y).sum().item() // len(y) * 100.0


def _macro_f1(out, y):
    pred, scores = out.argmax(1), []
    for c in range(out.shape[1]):
        tp = ((pred == c) & (y == c)).sum().item()
        fp, fn = ((pred == c) & (y != c)).sum().item(), ((pred != c) & (y == c)).sum().item()
        scores.append(2 * tp / max(2 * tp + fp + fn, 1))
    return sum(scores) / len(scores)


@pytest.mark.parametrize(
    ("metric", "status"),
    [(_percent_by_floor_division, "failed"), (_plain_accuracy, "passed"), (_macro_f1, "passed")],
)
def test_metric_audit_scores_half_right_predictions_near_half_of_perfect(metric, status):
    """Right at both ends, the floor-divided accuracy is caught only by predictions right on half the rows."""
    torch.manual_seed(0)
    x, y = torch.randn(16, 4), torch.arange(16) % 4
    r = run("metric_audit", Target(model=nn.Linear(4, 4), batch=(x, y), metric_fn=metric))
    assert r.status == status, r.summary
    assert ("metric_inconsistent" in r.outcomes) == (status == "failed")
    plain = _plain_accuracy(torch.cat([torch.eye(4)[y[:8]], -torch.eye(4)[y[8:]]]), y)
    assert plain == 0.5  # the half-right predictions the probe builds, scored by plain torch


def test_metric_audit_builds_perfect_predictions_for_class_last_sequence_output():
    """(B, T, C) logits against (B, T) labels: perfect predictions score 1, not a false 'inconsistent'."""
    torch.manual_seed(0)
    ids = torch.randint(0, 9, (4, 7))
    model = nn.Sequential(nn.Embedding(9, 6), nn.Linear(6, 9))  # (B, T, 9)
    r = run(
        "metric_audit",
        Target(model=model, batch=(ids, ids), metric_fn=lambda out, t: (out.argmax(-1) == t).float().mean().item()),
    )
    assert r.status == "passed" and r.measurements["metric_on_perfect"] == 1.0, r.summary


class _DeadBranch(nn.Module):
    """A branch behind a ReLU whose bias pushes every unit below zero: it gets no gradient at all."""

    def __init__(self, dead: bool) -> None:
        super().__init__()
        self.branch = nn.Linear(4, 3)
        self.head = nn.Linear(3 + 4, 1)
        if dead:
            with torch.no_grad():
                self.branch.bias.fill_(-100.0)

    def forward(self, x):
        return self.head(torch.cat([torch.relu(self.branch(x)), x], dim=1))  # (B, 1)


@pytest.mark.parametrize("dead", [True, False])
def test_step_audit_does_not_call_zero_gradient_tensors_updated(dead):
    torch.manual_seed(0)
    x, y = torch.randn(16, 4), torch.randn(16, 1)
    sgd = lambda p: torch.optim.SGD(p, lr=0.1)  # noqa: E731
    r = run("step_audit", Target(model=_DeadBranch(dead), batch=(x, y), loss_fn=F.mse_loss, optimizer=sgd))
    assert r.status == "passed"
    assert ("params_negligible_grad" in r.outcomes) == dead and ("params_updated" in r.outcomes) == (not dead)
    assert ("every parameter updated" in r.summary) == (not dead)


class _DecayEverything:
    """An optimizer wrapper that applies weight decay to every parameter it holds, gradient or not."""

    def __init__(self, params) -> None:
        self.params = list(params)
        self.inner = torch.optim.SGD(self.params, lr=0.1)
        self.param_groups = self.inner.param_groups

    def zero_grad(self, set_to_none: bool = True) -> None:
        self.inner.zero_grad(set_to_none=set_to_none)

    def step(self) -> None:
        for p in self.params:
            p.data.mul_(0.99)  # decoupled decay, also on frozen tensors
        self.inner.step()


def _frozen_backbone(opt) -> Target:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    for p in model[0].parameters():
        p.requires_grad = False
    batch = (torch.randn(16, 4), torch.randint(0, 2, (16,)))
    return Target(model=model, batch=batch, loss_fn=F.cross_entropy, optimizer=opt)


@pytest.mark.parametrize(("opt", "moved"), [(_DecayEverything, True), (lambda p: torch.optim.AdamW(p, lr=0.1), False)])
def test_step_audit_sees_frozen_tensors_that_the_optimizer_still_moves(opt, moved):
    r = run("step_audit", _frozen_backbone(opt))
    assert ("frozen_params_moved" in r.outcomes) == moved and (r.status == "failed") == moved, r.summary
    # plain torch: AdamW skips tensors without a gradient; the wrapper's decay does not
    target = _frozen_backbone(opt)
    before = target.model[0].weight.detach().clone()
    o = target.optimizer(target.model.parameters())
    F.cross_entropy(target.model(target.batch[0]), target.batch[1]).backward()
    o.step()
    assert (not torch.equal(before, target.model[0].weight)) == moved


class _EmaPair(nn.Module):
    """A student and an EMA teacher (frozen, updated by the train step itself, not by the optimizer)."""

    def __init__(self) -> None:
        super().__init__()
        self.student, self.teacher = nn.Linear(4, 2), nn.Linear(4, 2)
        self.teacher.requires_grad_(False)

    def forward(self, x):
        return self.student(x) + 0.0 * self.teacher(x)


def _ema_step(model, batch, optimizer, loss_fn):
    x, y = batch
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        for t, s in zip(model.teacher.parameters(), model.student.parameters(), strict=True):
            t.mul_(0.9).add_(0.1 * s)  # the teacher moves by design
    return loss.detach()


def test_step_audit_lets_an_ema_teacher_move():
    torch.manual_seed(0)
    model = _EmaPair()
    target = Target(
        model=model,
        batch=(torch.randn(16, 4), torch.randint(0, 2, (16,))),
        loss_fn=F.cross_entropy,
        optimizer=lambda ps: torch.optim.SGD([p for p in ps if p.requires_grad], lr=0.1),
        train_step=_ema_step,
    )
    r = run("step_audit", target)
    assert "frozen_params_moved" not in r.outcomes, r.summary


# --- nonfinite_trace: a NaN gradient some steps in, behind a finite loss --------------------------------


class _NanAfter(torch.autograd.Function):
    """Identity whose backward turns NaN from its fourth call on (a log or norm at 0 reached mid-training)."""

    @staticmethod
    def forward(ctx, x: torch.Tensor, calls: list[int]) -> torch.Tensor:
        ctx.calls = calls
        return x.clone()

    @staticmethod
    def backward(ctx, g: torch.Tensor) -> tuple[torch.Tensor, None]:
        ctx.calls[0] += 1
        return (g * float("nan") if ctx.calls[0] > 3 else g), None


class LateNan(nn.Module):
    def __init__(self, bug: bool) -> None:
        super().__init__()
        self.bug, self.calls = bug, [0]
        self.fc = nn.Linear(6, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.fc(x)
        return _NanAfter.apply(h, self.calls) if self.bug else h


def test_a_nan_gradient_behind_a_finite_loss_is_traced_to_its_backward() -> None:
    x, y = torch.randn(16, 6), torch.randint(0, 3, (16,))
    buggy = run("nonfinite_trace", Target(model=LateNan(True), batch=(x, y), loss_fn=nn.CrossEntropyLoss()))
    healthy = run("nonfinite_trace", Target(model=LateNan(False), batch=(x, y), loss_fn=nn.CrossEntropyLoss()))
    assert buggy.status == "failed" and "nonfinite_backward" in buggy.outcomes, buggy.summary
    assert "_NanAfterBackward" in buggy.measurements["backward_function"]
    assert healthy.status == "passed" and healthy.outcomes == ["all_finite"], healthy.summary
