"""The three core probes: each fails its buggy model, passes its healthy twin, and touches nothing."""

from __future__ import annotations

import random

import pytest
import torch
from torch import nn

import debug_agent.probes as P
from debug_agent.errors import RegistrationError, UsageError
from debug_agent.isolation import probe_registry
from debug_agent.schemas import ProbeResult, Target

from .models import BatchStatNet, SoftmaxNet, causal_target, regression_target, seq_target


def run(name: str, target: Target, **options) -> ProbeResult:
    probe_registry()
    return P.execute(name, target, P.ProbeContext(seed=0, budget_s=60), options)


# --- dependency -----------------------------------------------------------------------------------


def test_dependency_catches_reshape_scramble():
    r = run("dependency", seq_target(bug=True))
    assert r.status == "failed"
    assert {"batch_leak", "batch_leak_structured"} <= set(r.outcomes)
    assert r.measurements["exemplar_sources"], "names the rows that leak into the exemplar row"
    assert r.measurements["backward_passes"] <= 2 * 3 + 2 + 2  # B=8: 2*ceil(log2 8) + 2, plus retries


def test_dependency_passes_healthy_twin():
    r = run("dependency", seq_target(bug=False))
    assert r.status == "passed" and r.outcomes == ["batch_independent"]


def test_dependency_matches_brute_force_jacobian():
    """Group testing finds exactly the rows a full per-row Jacobian says leak."""
    t = seq_target(bug=True, batch=8)
    r = run("dependency", t)
    model = t.model.eval()
    emb = model.embed(t.inputs[0]).detach().requires_grad_(True)
    saved = model.embed.forward
    model.embed.forward = lambda tokens: emb  # feed the leaf straight in
    try:
        out = model(t.inputs[0])
        leaking = set()
        for i in range(8):
            (g,) = torch.autograd.grad(out[i].sum(), emb, retain_graph=True)
            norms = g.reshape(8, -1).norm(dim=1)
            leaking |= {j for j in range(8) if j != i and norms[j] > 1e-6 * norms.max()}
    finally:
        model.embed.forward = saved
    assert set(r.measurements["leaking_input_rows"]) == leaking


@pytest.mark.parametrize(
    "bug,tags", [(True, {"batch_leak_dense", "batch_leak_via_norm"}), (False, {"batch_independent"})]
)
def test_dependency_batch_norm_coupling(bug, tags):
    torch.manual_seed(0)
    r = run("dependency", Target(model=BatchStatNet(bug), batch=(torch.randn(16, 4), torch.zeros(16))))
    assert tags <= set(r.outcomes)


@pytest.mark.parametrize("dim,tag", [(0, "batch_leak_via_softmax"), (-1, "batch_independent")])
def test_dependency_softmax_axis(dim, tag):
    r = run("dependency", Target(model=SoftmaxNet(dim), batch=(torch.randn(16, 4), torch.zeros(16))))
    assert tag in r.outcomes


@pytest.mark.parametrize("bug,tag", [(True, "causal_leak"), (False, "causal_ok")])
def test_dependency_causal(bug, tag):
    r = run("dependency", causal_target(bug))
    assert tag in r.outcomes
    assert "batch_independent" in r.outcomes


def test_dependency_batch_of_one_is_not_applicable():
    t = seq_target(bug=True, batch=1)
    assert run("dependency", t).status == "not_applicable"


# --- shape_audit ----------------------------------------------------------------------------------


def test_shape_audit_catches_broadcast_with_line():
    r = run("shape_audit", regression_target(bug=True))
    assert r.status == "failed" and "broadcast_expansion" in r.outcomes
    f = r.findings[0]
    assert f.data["shapes"] == [[32, 1], [32]] and f.data["out_shape"] == [32, 32]
    assert f.where and f.where.endswith("models.py:" + f.where.rsplit(":", 1)[1])
    assert "pred - y" in (f.code or "")


def test_shape_audit_passes_healthy_twin():
    r = run("shape_audit", regression_target(bug=False))
    assert r.status == "passed" and r.outcomes == ["shapes_consistent"]


def test_shape_audit_flags_loss_shape_mismatch():
    torch.manual_seed(0)
    t = Target(model=nn.Linear(3, 1), batch=(torch.randn(8, 3), torch.randn(8)), loss_fn=nn.MSELoss())
    r = run("shape_audit", t)
    assert "loss_shape_mismatch" in r.outcomes and r.status == "failed"


def test_shape_audit_allows_bias_broadcast_and_outer_products():
    class Outer(nn.Module):
        def forward(self, x):
            return x[:, :, None] * x[:, None, :] + torch.ones(3)  # (N,3,1)*(N,1,3) + (3,)

    r = run("shape_audit", Target(model=Outer(), batch=(torch.randn(4, 3), torch.zeros(4))))
    assert r.status == "passed"


# --- overfit_one_batch ----------------------------------------------------------------------------


def test_overfit_converges_on_healthy_model():
    r = run("overfit_one_batch", regression_target(bug=False))
    assert r.status == "passed" and r.outcomes == ["converged"]
    assert r.measurements["relative_drop"] >= 0.9


def test_overfit_stalls_on_broadcast_loss():
    r = run("overfit_one_batch", regression_target(bug=True))
    assert r.status == "failed" and r.outcomes == ["stalled"]


def test_overfit_is_inconclusive_when_the_steps_run_out_while_the_loss_still_falls():
    """A sound model on a slow rate: the loss is still falling steadily at the last step, so no verdict."""
    t = regression_target(bug=False)
    t.optimizer = lambda p: torch.optim.SGD(p, lr=5e-3)  # 4.61 -> 1.48 in 60 steps, 16% in the last 15
    r = run("overfit_one_batch", t, steps=60)
    assert r.status == "inconclusive" and r.outcomes == [], r.summary
    assert "still falling" in r.summary


def test_overfit_still_stalls_when_the_loss_has_flattened():
    """The broadcast bug flattens at the variance of the targets: the last quarter gains nothing."""
    r = run("overfit_one_batch", regression_target(bug=True), steps=60)
    assert r.status == "failed" and r.outcomes == ["stalled"]


def test_overfit_tells_a_model_too_small_for_the_batch_from_a_broken_step():
    """Four hidden units cannot memorise 64 random labels, but they can memorise two rows: capacity, not a defect."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 4), nn.ReLU(), nn.Linear(4, 10))
    x, y = torch.randn(64, 8), torch.randint(0, 10, (64,))
    t = Target(model=model, batch=((x,), y), loss_fn=nn.functional.cross_entropy)
    t.optimizer = lambda p: torch.optim.Adam(p, lr=1e-2)
    r = run("overfit_one_batch", t)
    assert r.status == "passed" and r.outcomes == ["capacity_limited"], r.summary
    assert r.measurements["few_rows_drop"] >= 0.9


def test_overfit_flags_divergence():
    t = regression_target(bug=False)
    t.optimizer = lambda p: torch.optim.SGD(p, lr=50.0)
    r = run("overfit_one_batch", t)
    assert r.outcomes == ["diverged"]


def test_overfit_uses_the_users_train_step():
    calls = []

    def step(model, batch, opt, loss_fn):
        calls.append(1)
        opt.zero_grad()
        loss = loss_fn(model(batch[0]), batch[1])
        loss.backward()
        opt.step()
        return loss

    t = regression_target(bug=False)
    t.train_step = step
    r = run("overfit_one_batch", t)
    assert calls and r.measurements["used_train_step"] is True


def test_overfit_not_applicable_without_loss():
    t = seq_target(bug=False)
    t.loss_fn = None
    assert run("overfit_one_batch", t).status == "not_applicable"


# --- every probe: copies only, RNG untouched ------------------------------------------------------


def _full_target() -> Target:
    """A target that gives every probe something to do: train_step, eval_fn, metric, data splits."""
    import runpy
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "examples" / "cnn_healthy" / "target.py"
    return Target.model_validate(runpy.run_path(str(path))["make_target"]())


@pytest.mark.parametrize(
    "make", [lambda: seq_target(True), lambda: regression_target(True), _full_target], ids=["seq", "regression", "cnn"]
)
def test_probes_never_touch_model_optimizer_or_rng(make, probes_registry):
    t = make()
    before = {k: v.clone() for k, v in t.model.state_dict().items()}
    training = t.model.training
    t.model.eval()
    modes = {n: m.training for n, m in t.model.named_modules()}
    batch = [x.clone() for x in t.inputs]
    for name in probes_registry:
        torch.manual_seed(123)
        random.seed(7)
        rng, py = torch.random.get_rng_state(), random.getstate()
        run(name, t)
        assert all(torch.equal(before[k], v) for k, v in t.model.state_dict().items()), name
        assert all(p.grad is None for p in t.model.parameters()), name
        assert {n: m.training for n, m in t.model.named_modules()} == modes, name
        assert all(torch.equal(a, b) for a, b in zip(batch, t.inputs, strict=True)), name
        assert torch.equal(torch.random.get_rng_state(), rng) and random.getstate() == py, name
    t.model.train(training)


def test_probes_are_deterministic():
    a = run("overfit_one_batch", regression_target(bug=True))
    b = run("overfit_one_batch", regression_target(bug=True))
    assert a.measurements["curve"] == b.measurements["curve"]


# --- registry -------------------------------------------------------------------------------------


def test_registry_validates_at_registration():
    with pytest.raises(RegistrationError, match="docstring"):

        @P.probe(outcomes=("x",))
        def nodoc(target, ctx, options):
            return None

    with pytest.raises(RegistrationError, match="already registered"):

        @P.probe(outcomes=("x",), name="dependency")
        def dup(target, ctx, options):
            """Duplicate."""

    with pytest.raises(RegistrationError, match="requires"):

        @P.probe(outcomes=("x",), requires=("model", "nonsense"))
        def badreq(target, ctx, options):
            """Bad requirement."""

    assert "nodoc" not in P.REGISTRY and "badreq" not in P.REGISTRY


def test_unknown_option_is_a_usage_error():
    with pytest.raises(UsageError, match="allowed options"):
        run("overfit_one_batch", regression_target(False), nonsense=1)


def test_every_probe_has_help_and_outcomes(probes_registry):
    for spec in probes_registry.values():
        info = spec.info()
        assert info.help and info.outcomes and info.cost > 0


def test_overfit_never_retries_on_time_steps_of_sequence_first_inputs():
    """(T, B, F) inputs: the few-row retry would cut time steps, so a stall stays a stall."""
    torch.manual_seed(0)

    class LastStep(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.rnn = nn.GRU(3, 2)
            self.head = nn.Linear(2, 10)

        def forward(self, x):  # x: (T, B, 3)
            return self.head(self.rnn(x)[0][-1])  # (B, 10)

    t = Target(
        model=LastStep(),
        batch=((torch.randn(5, 64, 3),), torch.randint(0, 10, (64,))),
        loss_fn=nn.functional.cross_entropy,
        batch_axis=1,
    )
    t.optimizer = lambda p: torch.optim.SGD(p, lr=1e-4)
    r = run("overfit_one_batch", t, steps=40)
    assert "capacity_limited" not in r.outcomes and "few_rows_drop" not in r.measurements, r.summary
