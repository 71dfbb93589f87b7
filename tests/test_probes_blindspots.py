"""Probes for the blind spots: each on a buggy model and its healthy twin, plus the planner and a report."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch import nn

import debug_agent
import debug_agent.probes as P
from debug_agent.engine import catalog, planner
from debug_agent.isolation import probe_registry
from debug_agent.schemas import ProbeResult, Target, TargetInfo

from .models import CausalLM


def run(name: str, target: Target, **options) -> ProbeResult:
    probe_registry()
    return P.execute(name, target, P.ProbeContext(seed=0, budget_s=60), options)


# --- eval_randomness: random-but-stateless vs stateful -------------------------------------------


class AttnDropoutAlways(nn.Module):
    """Attention-like block that passes a dropout probability regardless of self.training."""

    def __init__(self, sdpa: bool) -> None:
        super().__init__()
        self.sdpa = sdpa
        self.qkv = nn.Linear(8, 24)
        self.out = nn.Linear(8, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        if self.sdpa:
            h = F.scaled_dot_product_attention(q, k, v, dropout_p=0.2)
        else:
            h = F.dropout(torch.softmax(q @ k.transpose(1, 2) / 8**0.5, -1), 0.2, training=True) @ v
        return self.out(h.mean(1))


class Healthy(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Dropout(0.3), nn.Linear(16, 2))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x.mean(1))


class Counter(nn.Module):
    """Keeps a call counter on itself and adds it to the output: state crosses calls."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(8, 2)
        self.calls = 0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.calls += 1
        return self.fc(x.mean(1)) + 0.1 * self.calls


def _seq_batch() -> tuple[torch.Tensor, torch.Tensor]:
    torch.manual_seed(0)
    return torch.randn(4, 5, 8), torch.randint(0, 2, (4,))


@pytest.mark.parametrize("sdpa", [False, True], ids=["functional_dropout", "sdpa_dropout_p"])
def test_eval_randomness_finds_random_eval_forward(sdpa):
    r = run("eval_randomness", Target(model=AttnDropoutAlways(sdpa), batch=_seq_batch()))
    assert r.status == "failed" and r.outcomes == ["eval_random"]
    assert r.measurements["same_seed_repeat_gap"] == 0.0 and r.measurements["other_seed_gap"] > 0
    draw = r.findings[1]
    assert draw.where and "test_probes_blindspots.py" in draw.where
    assert ("dropout_p=0.2" if sdpa else "training=True") in draw.text


class TinyVAE(nn.Module):
    """Samples its latent in every mode (reparameterisation): random by design, no dropout."""

    def __init__(self) -> None:
        super().__init__()
        self.enc, self.dec = nn.Linear(8, 4), nn.Linear(2, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        mu, logvar = self.enc(x.mean(1)).chunk(2, dim=-1)  # (B, 2) each
        return self.dec(mu + torch.randn_like(mu) * torch.exp(0.5 * logvar))


def test_eval_randomness_reads_gaussian_sampling_as_sampling_not_dropout():
    r = run("eval_randomness", Target(model=TinyVAE(), batch=_seq_batch()))
    assert r.status == "passed" and r.outcomes == ["eval_sampling"], r.summary
    assert r.measurements["other_seed_gap"] > 0 and "randn_like" in r.findings[0].text


def test_eval_randomness_finds_state():
    r = run("eval_randomness", Target(model=Counter(), batch=_seq_batch()))
    assert r.status == "failed" and r.outcomes == ["eval_stateful"]


def test_eval_randomness_passes_healthy_twin():
    r = run("eval_randomness", Target(model=Healthy(), batch=_seq_batch()))
    assert r.status == "passed" and r.outcomes == ["eval_repeatable"]


def test_mode_audit_no_longer_reads_randomness_as_state():
    """Both eval forwards are seeded alike, so a random-but-stateless forward is not 'state'."""
    r = run("mode_audit", Target(model=AttnDropoutAlways(False), batch=_seq_batch()))
    assert "state_mutated_in_forward" not in r.outcomes and "forward_deterministic" in r.outcomes
    assert "state_mutated_in_forward" in run("mode_audit", Target(model=Counter(), batch=_seq_batch())).outcomes


def test_catalog_gives_the_two_findings_different_meanings():
    cat = catalog.load()
    train_at_eval, state = cat.get("mode.train_at_eval"), cat.get("state.cross_batch")
    assert train_at_eval.probes["eval_randomness"]["eval_random"] > 0 > state.probes["eval_randomness"]["eval_random"]
    assert state.probes["eval_randomness"]["eval_stateful"] > train_at_eval.probes["eval_randomness"]["eval_stateful"]


def test_random_eval_forward_is_diagnosed_as_train_at_eval_not_state():
    x, y = _seq_batch()
    report = debug_agent.diagnose(
        AttnDropoutAlways(False),
        (x, y),
        nn.CrossEntropyLoss(),
        symptom="validation numbers differ every time I evaluate the same checkpoint on the same data",
        probes=["mode_audit", "eval_randomness"],
    )
    assert report.cause_id == "mode.train_at_eval"
    state = [h for h in report.hypotheses if h.cause_id == "state.cross_batch"]
    assert all(h.status == "contradicted" for h in state)


# --- train_coupling -------------------------------------------------------------------------------


def _bn_target(batch: int, norm: type[nn.Module] = nn.BatchNorm1d) -> Target:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 16), norm(16), nn.ReLU(), nn.Dropout(0.2), nn.Linear(16, 3))
    return Target(model=model, batch=(torch.randn(batch, 6), torch.randint(0, 3, (batch,))))


def test_train_coupling_finds_batch_norm_over_two_examples():
    r = run("train_coupling", _bn_target(2))
    assert r.status == "failed" and r.outcomes == ["train_coupling_strong"]
    assert r.measurements["fewest_values_per_statistic"] == 2
    assert r.measurements["eval_cross"] == 0.0, "invisible in eval mode, where the dependency probe looks"
    assert r.findings[0].where and "only in training mode" in r.findings[0].text


def test_train_coupling_normal_batch_norm_is_weak_and_passes():
    r = run("train_coupling", _bn_target(32))
    assert r.status == "passed" and r.outcomes == ["train_coupling_weak"]


def _conv_bn_target(batch: int) -> Target:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.Flatten(), nn.Linear(288, 1))
    return Target(model=model, batch=(torch.randn(batch, 1, 6, 6), torch.randn(batch, 1)))


def test_train_coupling_counts_examples_not_pixels():
    """Two images give 72 values per channel, but only two examples: the statistics are still a pair's."""
    r = run("train_coupling", _conv_bn_target(2))
    assert r.status == "failed" and r.outcomes == ["train_coupling_strong"], r.summary
    assert "over only 2 example(s) per channel" in r.findings[0].text
    healthy = run("train_coupling", _conv_bn_target(8))
    assert healthy.status == "passed" and healthy.outcomes == ["train_coupling_weak"], healthy.summary


def test_train_coupling_passes_healthy_twin():
    r = run("train_coupling", _bn_target(8, nn.LayerNorm))
    assert r.status == "passed" and r.outcomes == ["train_batch_independent"]


def test_train_coupling_is_deterministic():
    a, b = run("train_coupling", _bn_target(4)), run("train_coupling", _bn_target(4))
    assert a.measurements == b.measurements


# --- label_offset ---------------------------------------------------------------------------------


def _flat_ce(logits, y):
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1), ignore_index=-100)


def _shifting_ce(logits, y):  # a loss that shifts itself, as causal-LM heads do
    return _flat_ce(logits[:, :-1], y[:, 1:])


def _lm_target(inputs, labels, loss) -> Target:
    torch.manual_seed(0)
    return Target(model=CausalLM(False), batch=(inputs, labels), loss_fn=loss)


@pytest.fixture(scope="module")
def tokens():
    torch.manual_seed(0)
    return torch.randint(0, 20, (8, 16))


def test_label_offset_finds_labels_equal_to_inputs(tokens):
    r = run("label_offset", _lm_target(tokens, tokens, _flat_ce), steps=0)
    assert r.status == "failed" and r.outcomes == ["labels_copy_input"]
    assert r.measurements["offset"] == 0 and r.measurements["match_by_offset"]["0"] == 1.0


def test_label_offset_finds_labels_shifted_twice(tokens):
    r = run("label_offset", _lm_target(tokens[:, :-1], tokens[:, 1:], _shifting_ce), steps=0)
    assert r.status == "failed" and r.outcomes == ["labels_shifted_twice"]
    assert "shifted twice" in r.findings[0].text


@pytest.mark.parametrize("shift_in", ["data", "loss"])
def test_label_offset_passes_healthy_twins(tokens, shift_in):
    t = (
        _lm_target(tokens[:, :-1], tokens[:, 1:], _flat_ce)
        if shift_in == "data"
        else _lm_target(tokens, tokens, _shifting_ce)
    )
    r = run("label_offset", t, steps=0)
    assert r.status == "passed" and r.outcomes == ["labels_next_token"]


def test_label_offset_loss_on_renamed_tokens(tokens):
    copy = run("label_offset", _lm_target(tokens, tokens, _flat_ce), steps=20)
    healthy = run("label_offset", _lm_target(tokens[:, :-1], tokens[:, 1:], _flat_ce), steps=20)
    assert copy.measurements["loss_on_renamed_tokens"] < healthy.measurements["loss_on_renamed_tokens"]
    assert "loss_below_label_entropy" not in healthy.outcomes


def test_label_offset_other_labels_and_float_inputs(tokens):
    other = run("label_offset", _lm_target(tokens, torch.randint(0, 20, tokens.shape), _flat_ce), steps=0)
    assert other.status == "passed" and other.outcomes == ["labels_not_inputs"]
    floats = Target(model=nn.Linear(4, 2), batch=(torch.randn(8, 4), torch.zeros(8).long()), loss_fn=_flat_ce)
    assert run("label_offset", floats).status == "not_applicable"


# --- data_audit: groups and near duplicates -------------------------------------------------------


def _split_target(val_x: torch.Tensor, groups=None) -> Target:
    torch.manual_seed(0)
    x = torch.randn(200, 12)
    y = (x[:, 0] > 0).long()
    return Target(
        model=nn.Linear(12, 2),
        batch=(x[:16], y[:16]),
        train_data=(x, y),
        val_data=(val_x, (val_x[:, 0] > 0).long()),
        groups=groups,
    )


def test_data_audit_group_leakage():
    torch.manual_seed(1)
    val = torch.randn(50, 12)
    leaky = run("data_audit", _split_target(val, groups=(list(range(200)), [3, 7] * 25)))
    assert "groups_overlap" in leaky.outcomes and leaky.status == "failed"
    assert leaky.measurements["shared_groups"] == 2
    clean = run("data_audit", _split_target(val, groups=(list(range(200)), list(range(200, 250)))))
    assert "groups_disjoint" in clean.outcomes and clean.status == "passed"


def test_data_audit_near_duplicates():
    torch.manual_seed(0)
    train_x = torch.randn(200, 12)
    torch.manual_seed(2)
    near = run("data_audit", _split_target(train_x[:40] * 1.01 + 0.001 * torch.randn(40, 12)))
    assert "splits_near_duplicate" in near.outcomes and near.status == "failed"
    fresh = run("data_audit", _split_target(torch.randn(40, 12)))
    assert "splits_disjoint" in fresh.outcomes and fresh.status == "passed"


def test_groups_must_be_a_pair():
    with pytest.raises(ValueError, match="groups must be a pair"):
        Target(model=nn.Linear(2, 2), batch=(torch.randn(2, 2), torch.zeros(2)), groups="abc")


# --- shape_audit: comparisons that broadcast in a metric ------------------------------------------


def _acc_outer(out, y):
    return (out.argmax(1, keepdim=True) == y[None, :]).float().mean()  # (N,1) == (1,N) -> (N,N)


def _acc_ok(out, y):
    return (out.argmax(1) == y).float().mean()


def _contrastive(out, y):  # a deliberate (N,1) vs (1,N) mask in a loss is not flagged
    same = (y[:, None] == y[None, :]).float()
    return (out @ out.T * same).mean()


@pytest.mark.parametrize("metric,bad", [(_acc_outer, True), (_acc_ok, False)])
def test_shape_audit_comparison_in_metric(metric, bad):
    torch.manual_seed(0)
    t = Target(model=nn.Linear(4, 3), batch=(torch.randn(8, 4), torch.randint(0, 3, (8,))), metric_fn=metric)
    r = run("shape_audit", t)
    assert ("metric_broadcast" in r.outcomes) is bad
    if bad:
        assert any("eq" in f.text and f.where for f in r.findings)


def test_shape_audit_leaves_pairwise_masks_in_losses_alone():
    torch.manual_seed(0)
    t = Target(model=nn.Linear(4, 3), batch=(torch.randn(8, 4), torch.randint(0, 3, (8,))), loss_fn=_contrastive)
    assert run("shape_audit", t).status == "passed"


# --- planner: metric_audit for impossible metric values -------------------------------------------


def _info(provided: list[str]) -> TargetInfo:
    return TargetInfo(
        model_class="Net",
        n_params=10,
        n_trainable=10,
        provided=provided,
        input_shapes=[[8, 4]],
        input_dtypes=["float32"],
        batch_size=8,
    )


def test_impossible_metric_value_plans_metric_audit(probes_registry):
    from debug_agent.engine.evidence import Ledger, add_symptoms, match_symptoms

    cat = catalog.load()
    ledger = Ledger(cat)
    add_symptoms(ledger, match_symptoms("validation accuracy is 180% after the refactor", cat))
    cred = ledger.credences()
    assert max(cred, key=cred.get) == "metric.wrong"
    infos = [s.info() for s in probes_registry.values()]
    chosen, skipped = planner.plan(cat, cred, infos, _info(["model", "batch", "loss_fn", "metric_fn"]), 40.0)
    assert "metric_audit" in [r.name for r in chosen]
    chosen, skipped = planner.plan(cat, cred, infos, _info(["model", "batch", "loss_fn"]), 40.0)
    assert "metric_audit" not in [r.name for r in chosen]
    assert any(s.name == "metric_audit" and "metric_fn" in s.why for s in skipped)


# --- loss_coupling: a loss that normalises across the batch axis ----------------------------------


def _classifier_target(loss_fn) -> Target:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 4))
    return Target(model=model, batch=((torch.randn(12, 6),), torch.randint(0, 4, (12,))), loss_fn=loss_fn)


def test_loss_coupling_finds_log_softmax_over_the_batch_axis():
    def loss(logits, y):  # log_softmax over dim 0 (the batch) where dim=-1 was meant
        return nn.functional.nll_loss(torch.log_softmax(logits, dim=0), y)

    r = run("loss_coupling", _classifier_target(loss))
    assert r.status == "failed" and r.outcomes == ["loss_couples_rows"]
    assert r.measurements["relative_change"] > 1e-2


def test_loss_coupling_passes_cross_entropy_and_a_sum_reduction():
    for loss in (nn.CrossEntropyLoss(), nn.CrossEntropyLoss(reduction="sum")):
        r = run("loss_coupling", _classifier_target(loss))
        assert r.status == "passed" and r.outcomes == ["loss_rows_independent"], r.summary


def test_loss_coupling_matches_a_plain_torch_jacobian():
    """The probe's verdict agrees with autograd: d loss / d logits[0] moves when logits[-1] moves."""
    logits = torch.randn(6, 4)
    y = torch.randint(0, 4, (6,))

    def grad0(z: torch.Tensor, dim: int) -> torch.Tensor:
        z = z.clone().requires_grad_(True)
        nn.functional.nll_loss(torch.log_softmax(z, dim=dim), y).backward()
        return z.grad[0]

    bumped = logits.clone()
    bumped[-1] += 3.0
    assert not torch.allclose(grad0(logits, 0), grad0(bumped, 0))
    assert torch.allclose(grad0(logits, 1), grad0(bumped, 1))


def test_loss_coupling_is_not_applicable_when_the_loss_ignores_the_output():
    """A loss the model computed itself (read from another output field) leaves nothing to test."""

    class WithLoss(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.lin = nn.Linear(6, 4)

        def forward(self, x):
            logits = self.lin(x)  # (B, 4)
            return {"logits": logits, "loss": logits.pow(2).mean()}

    t = Target(model=WithLoss(), batch=((torch.randn(8, 6),), torch.zeros(8)), loss_fn=lambda out, y: out["loss"])
    assert run("loss_coupling", t).status == "not_applicable"
