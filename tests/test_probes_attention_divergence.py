"""attention_scale on unscaled and scaled attention; nonfinite_trace walking train_data and telling divergence apart."""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F
from torch import nn

import debug_agent.probes as P
from debug_agent.isolation import probe_registry
from debug_agent.schemas import ProbeResult, Target


def run(name: str, target: Target, **options) -> ProbeResult:
    probe_registry()
    return P.execute(name, target, P.ProbeContext(seed=0, budget_s=60), options)


class Pointer(nn.Module):
    """One query attends over 8 tokens; `scaled` divides q.k by sqrt(d) as attention should."""

    def __init__(self, scaled: bool, d: int = 128) -> None:
        super().__init__()
        self.scaled = scaled
        self.emb = nn.Embedding(16, d)
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.out = nn.Linear(d, 16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.emb(x)  # (B, T, d)
        scores = self.q(h[:, :1]) @ self.k(h).transpose(1, 2)  # (B, 1, T)
        if self.scaled:
            scores = scores / math.sqrt(h.shape[-1])
        weights = F.dropout(scores.softmax(-1), 0.1, self.training)
        return self.out((weights @ self.v(h))[:, 0])


def _pointer(scaled: bool) -> Target:
    torch.manual_seed(0)
    x = torch.randint(0, 16, (32, 8))
    return Target(model=Pointer(scaled), batch=(x, x[:, 0]), loss_fn=F.cross_entropy)


def test_unscaled_attention_is_saturated_from_the_start():
    r = run("attention_scale", _pointer(scaled=False))
    assert r.status == "failed" and r.outcomes == ["attention_saturated"]
    assert r.measurements["head_dim"] == 128
    assert "unscaled" in r.findings[0].text and "softmax" in r.findings[0].code


def test_scaled_attention_spreads_over_the_keys():
    r = run("attention_scale", _pointer(scaled=True))
    assert r.status == "passed" and r.outcomes == ["attention_soft"]
    assert r.measurements["peak_weight"] < 0.5


class ScaledBy(nn.Module):
    """Self-attention whose scores are multiplied by `sm_scale` before the softmax: 1.0 is the bug (a kernel's
    default left in place), head_dim ** -0.5 the intended scale."""

    def __init__(self, sm_scale: float, d: int = 256, heads: int = 4) -> None:
        super().__init__()
        self.h, self.dh, self.sm_scale = heads, d // heads, sm_scale
        self.qkv, self.out = nn.Linear(d, 3 * d), nn.Linear(d, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # x: (B, T, d)
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)  # each (B, h, T, dh)
        att = F.softmax((q @ k.transpose(-2, -1)) * self.sm_scale, dim=-1)  # (B, h, T, T)
        return self.out((att @ v).transpose(1, 2).reshape(B, T, D).mean(1))  # (B, 3)


@pytest.mark.parametrize(("sm_scale", "outcome"), [(1.0, "attention_saturated"), (64**-0.5, "attention_soft")])
def test_scores_multiplied_by_a_number_are_followed_to_the_softmax(sm_scale: float, outcome: str):
    torch.manual_seed(0)
    x = torch.randn(8, 16, 256)
    r = run("attention_scale", Target(model=ScaledBy(sm_scale), batch=(x, torch.zeros(8, dtype=torch.long))))
    assert r.outcomes == [outcome], (r.summary, r.measurements)


def test_no_attention_is_not_applicable():
    torch.manual_seed(0)
    t = Target(model=nn.Sequential(nn.Linear(4, 8), nn.Softmax(-1)), batch=(torch.randn(8, 4), torch.zeros(8)))
    assert run("attention_scale", t).status == "not_applicable"


@pytest.mark.slow
def test_hugging_face_bert_from_a_tiny_config_is_soft_and_pretrained_gets_no_verdict():
    transformers = pytest.importorskip("transformers")
    cfg = transformers.BertConfig(
        vocab_size=100, hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
        attn_implementation="eager",
    )
    torch.manual_seed(0)
    model = transformers.BertForSequenceClassification(cfg)
    ids = torch.randint(0, 100, (4, 12))
    target = Target(model=model, batch=({"input_ids": ids}, torch.zeros(4, dtype=torch.long)))
    assert run("attention_scale", target).outcomes == ["attention_soft"]
    model.config._name_or_path = "some-org/bert-tiny"  # what from_pretrained records
    assert run("attention_scale", target).status == "not_applicable"


class Contrastive(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 16))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


def _sim_loss(z: torch.Tensor, _y: torch.Tensor) -> torch.Tensor:
    """Each row's positive is its neighbour in the pair; sharp temperature."""
    sim = (z @ z.t() / 0.1).masked_fill(torch.eye(len(z), dtype=torch.bool), -1e9)  # (B, B)
    return F.cross_entropy(sim, torch.arange(len(z)) ^ 1)


def _contrastive(lr: float) -> Target:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    x = torch.randn(512, 32, generator=g)
    data = [(x[i : i + 32], torch.zeros(32)) for i in range(0, 512, 32)]
    return Target(
        model=Contrastive(), batch=data[0], loss_fn=_sim_loss, train_data=data,
        optimizer=lambda p: torch.optim.SGD(p, lr=lr, momentum=0.9),
    )


def _first_nan(target: Target, steps: int, cycle: bool) -> int | None:
    """Plain torch: the step at which the loss first turns non-finite, on the batches or on batch 0 only."""
    model = target.model
    saved = {k: v.clone() for k, v in model.state_dict().items()}
    opt = target.optimizer(model.parameters())
    for step in range(steps):
        x, y = target.train_data[step % len(target.train_data)] if cycle else target.batch
        loss = target.loss_fn(model(x), y)
        if not torch.isfinite(loss):
            model.load_state_dict(saved)
            return step + 1
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.load_state_dict(saved)
    return None


def test_nonfinite_trace_walks_the_training_batches_and_sees_the_weights_diverge():
    target = _contrastive(lr=0.5)
    first = _first_nan(target, 40, cycle=True)
    assert first is not None  # plain torch: the epoch over varied batches diverges
    r = run("nonfinite_trace", target)
    assert r.status == "failed" and {"nonfinite_after_steps", "weights_diverged"} <= set(r.outcomes)
    assert r.measurements["steps_until_nonfinite"] == first
    assert r.measurements["batches_cycled"] == 16 and r.measurements["weight_growth"] >= 100


def test_nonfinite_trace_healthy_rate_stays_finite_over_the_batches():
    r = run("nonfinite_trace", _contrastive(lr=0.01))
    assert r.status == "passed" and r.measurements["batches_cycled"] == 16


def test_training_batches_reads_each_protocol_form():
    from debug_agent.probes._data import training_batches

    x, y = torch.randn(10, 3), torch.arange(10)
    assert [len(b[0]) for b in training_batches((x[:4], y[:4]), (x, y), 5)] == [4, 4, 2]
    listed = [(x[:5], y[:5]), (x[5:], y[5:])]
    assert training_batches((x[:5], y[:5]), listed, 1) == listed[:1]
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=3)
    assert [len(b[0]) for b in training_batches((x[:3], y[:3]), loader, 10)] == [3, 3, 3, 1]
    examples = [(x[i], y[i]) for i in range(10)]  # single examples, not batches
    assert training_batches((x[:3], y[:3]), examples, 10) == []


def _masked_lm() -> Target:
    """A token model whose batch has every label set to ignore_index (prompts longer than the cut)."""
    torch.manual_seed(0)
    ids = torch.randint(0, 20, (4, 6))
    return Target(
        model=nn.Sequential(nn.Embedding(20, 8), nn.Linear(8, 20)),
        batch=(ids, torch.full((4, 6), -100)),
        loss_fn=lambda out, y: F.cross_entropy(out.reshape(-1, 20), y.reshape(-1)),
    )


def test_nonfinite_trace_names_a_loss_over_no_labels():
    r = run("nonfinite_trace", _masked_lm())
    assert r.status == "failed" and r.outcomes == ["empty_loss_mean"]
    assert "ignore_index" in r.summary
    # plain torch agrees: the mean over zero kept labels is 0/0
    out = torch.randn(24, 20)
    assert torch.isnan(F.cross_entropy(out, torch.full((24,), -100)))
    assert torch.isfinite(F.cross_entropy(out, torch.full((24,), 3)))


class MixtureHead(nn.Module):
    """Sequence-first (T, B, D) GRU with three heads; `batch_norm_weights` normalises the weights over dim -2."""

    def __init__(self, over_batch: bool) -> None:
        super().__init__()
        self.over_batch = over_batch
        self.rnn = nn.GRU(4, 16)
        self.means, self.logits = nn.Linear(16, 12), nn.Linear(16, 3)

    def forward(self, z: torch.Tensor):
        h, _ = self.rnn(z)  # (T, B, 16)
        weights = self.logits(h)  # (T, B, 3)
        logpi = torch.log_softmax(weights, dim=-2 if self.over_batch else -1)  # -2 is the batch axis here
        return self.means(h), logpi


def _mixture(over_batch: bool) -> Target:
    torch.manual_seed(0)
    z = torch.randn(6, 8, 4)  # (T, B, D)
    return Target(model=MixtureHead(over_batch), batch=(z, z), batch_axis=1)


@pytest.mark.parametrize("over_batch", [True, False])
def test_dependency_reads_every_output_head_and_sequence_first_softmax(over_batch):
    r = run("dependency", _mixture(over_batch))
    assert (r.status == "failed") == over_batch, r.summary
    assert ("batch_leak_via_softmax" in r.outcomes) == over_batch
    # plain torch: the second head of row 0 moves when only row 5 changes, exactly when normalised over the batch
    target = _mixture(over_batch)
    z = target.batch[0].clone()
    moved = z.clone()
    moved[:, 5] += 1.0
    with torch.no_grad():
        a, b = target.model(z)[1][:, 0], target.model(moved)[1][:, 0]
    assert (not torch.allclose(a, b)) == over_batch


def test_train_coupling_follows_a_declared_batch_axis():
    r = run("train_coupling", _mixture(False))
    assert r.status == "passed" and r.outcomes == ["train_batch_independent"], r.summary
