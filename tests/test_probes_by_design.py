"""Designs that look like bugs to a naive probe, each next to the bug it resembles (healthy and buggy twins).

Found by running every probe on healthy models a new user brings (CLIP, SimCLR, a diffusion denoiser, a
VAE, an actor-critic, Mamba): a contrastive head compares rows on purpose, a diffusion step samples its
noise and timestep, a policy-gradient loss has no floor, a state-space model's step size sits in
softplus's tail by construction. The probe must stay silent on the design and still catch the bug.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

import debug_agent.probes as P
from debug_agent.isolation import probe_registry
from debug_agent.schemas import ProbeResult, Target


def run(name: str, target: Target, **options) -> ProbeResult:
    probe_registry()
    return P.execute(name, target, P.ProbeContext(seed=0, budget_s=120), options)


# --- shape_audit: an outer product on purpose vs (N,1) against (N,) -----------------------------------


class TimeEmbed(nn.Module):
    """Sinusoidal timestep features: (B, 1) times (F,) gives (B, F) on purpose; `bug` compares (B, 1) with (B,)."""

    def __init__(self, bug: bool) -> None:
        super().__init__()
        self.bug = bug
        self.fc = nn.Linear(8, 1)

    def forward(self, t: torch.Tensor) -> torch.Tensor:
        freqs = torch.exp(-math.log(1000) * torch.arange(4) / 4)  # (4,)
        emb = torch.cat([torch.sin(t[:, None] * freqs), torch.cos(t[:, None] * freqs)], -1)  # (B, 8)
        return self.fc(emb) if self.bug else self.fc(emb).squeeze(-1)  # BUG: (B, 1) left for an MSE on (B,)


def test_outer_product_of_different_lengths_is_no_broadcast_hazard() -> None:
    t, y = torch.arange(16).float(), torch.randn(16)
    healthy = run("shape_audit", Target(model=TimeEmbed(bug=False), batch=(t, y), loss_fn=nn.MSELoss()))
    buggy = run("shape_audit", Target(model=TimeEmbed(bug=True), batch=(t, y), loss_fn=nn.MSELoss()))
    assert healthy.status == "passed", healthy.summary
    assert buggy.status == "failed" and {"broadcast_expansion", "loss_shape_mismatch"} & set(buggy.outcomes)


def _value_loss_row_targets(out: torch.Tensor, returns: torch.Tensor) -> torch.Tensor:
    """(B, 1) critic values against returns stored as a (1, B) row: every value meets every return."""
    return ((out - returns) ** 2).mean()


def _ranking_loss(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """A pairwise ranking loss: every prediction against every other prediction, on purpose."""
    s = out.squeeze(-1)
    order = (y[:, None] > y[None, :]).float()  # (B, B) from the targets alone
    return (torch.relu(1 - (s[:, None] - s[None, :])) * order).mean()


def test_predictions_broadcast_against_a_row_of_targets_are_a_hazard_but_pairs_of_predictions_are_not() -> None:
    g = torch.Generator().manual_seed(0)
    x, y = torch.randn(16, 3, generator=g), torch.randn(16, generator=g)
    buggy = run("shape_audit", Target(model=nn.Linear(3, 1), batch=(x, y[None, :]), loss_fn=_value_loss_row_targets))
    healthy = run("shape_audit", Target(model=nn.Linear(3, 1), batch=(x, y), loss_fn=_ranking_loss))
    assert buggy.status == "failed" and "broadcast_expansion" in buggy.outcomes, buggy.summary
    assert healthy.status == "passed", healthy.summary
    # plain torch: the buggy loss is the mean over all 16 x 16 pairs, not over the 16 matched ones
    out = nn.Linear(3, 1)(x)
    assert (out - y[None, :]).shape == (16, 16)


# --- eval_randomness: a diffusion step samples on purpose; dropout left on does not ------------------


class Denoiser(nn.Module):
    """Forward draws a timestep and noise (a diffusion objective); `bug` also keeps dropout on in eval."""

    def __init__(self, bug: bool) -> None:
        super().__init__()
        self.bug = bug
        self.net = nn.Linear(9, 8)

    def forward(self, x0: torch.Tensor) -> torch.Tensor:
        t = torch.randint(0, 100, (x0.shape[0], 1)).float() / 100  # (B, 1)
        noise = torch.randn_like(x0)
        h = self.net(torch.cat([x0 * (1 - t).sqrt() + noise * t.sqrt(), t], -1))
        return F.dropout(h, 0.2, training=True) if self.bug else h


def test_sampled_timestep_and_noise_are_sampling_but_dropout_is_not() -> None:
    x = torch.randn(8, 8)
    healthy = run("eval_randomness", Target(model=Denoiser(bug=False), batch=(x, x)))
    buggy = run("eval_randomness", Target(model=Denoiser(bug=True), batch=(x, x)))
    assert healthy.status == "passed" and healthy.outcomes == ["eval_sampling"], healthy.summary
    assert buggy.status == "failed" and buggy.outcomes == ["eval_random"], buggy.summary


# --- dependency and loss_coupling: rows compared with rows by design -----------------------------------


class TwoTower(nn.Module):
    """CLIP-style: per-row embeddings plus a (B, B) similarity head. `bug` mixes rows in the embeddings."""

    def __init__(self, bug: bool) -> None:
        super().__init__()
        self.bug = bug
        self.a, self.b = nn.Linear(6, 5), nn.Linear(6, 5)

    def forward(self, xa: torch.Tensor, xb: torch.Tensor) -> dict[str, torch.Tensor]:
        ea, eb = F.normalize(self.a(xa), dim=-1), F.normalize(self.b(xb), dim=-1)  # (B, 5) each
        if self.bug:
            ea = ea.t().reshape(ea.shape)  # BUG: a reshape where a transpose back was meant scrambles rows
        return {"logits": ea @ eb.t() * 10, "emb_a": ea, "emb_b": eb}  # logits (B, B)


def _clip_target(bug: bool) -> Target:
    torch.manual_seed(0)
    xa, xb = torch.randn(8, 6), torch.randn(8, 6)
    return Target(
        model=TwoTower(bug), batch=((xa, xb), torch.arange(8)), loss_fn=lambda out, y: F.cross_entropy(out["logits"], y)
    )


def test_a_similarity_head_is_left_out_of_the_row_test() -> None:
    healthy, buggy = run("dependency", _clip_target(False)), run("dependency", _clip_target(True))
    assert healthy.status == "passed", healthy.summary
    assert any("coupling by design" in f.text for f in healthy.findings)
    assert buggy.status == "failed" and "batch_leak" in buggy.outcomes


def info_nce(z: torch.Tensor, _y: torch.Tensor) -> torch.Tensor:
    a, b = z[:, 0], z[:, 1]  # (B, D) two views
    return F.cross_entropy(a @ b.t() / 0.2, torch.arange(a.shape[0]))  # (B, B): in-batch negatives


def test_a_contrastive_loss_is_no_evidence_but_a_softmax_over_the_batch_is() -> None:
    x = torch.randn(16, 2, 6)
    model = nn.Linear(6, 4)
    healthy = run("loss_coupling", Target(model=model, batch=(x, torch.zeros(16)), loss_fn=info_nce))
    y = torch.randint(0, 4, (16,))
    wrong_dim = lambda out, t: F.nll_loss(F.log_softmax(out, dim=0), t)  # noqa: E731  BUG: dim=0
    buggy = run("loss_coupling", Target(model=nn.Linear(6, 4), batch=(x[:, 0], y), loss_fn=wrong_dim))
    assert healthy.status == "inconclusive" and not healthy.outcomes, healthy.summary
    assert buggy.status == "failed" and buggy.outcomes == ["loss_couples_rows"]


def test_a_loss_reading_a_model_output_without_logits_gets_the_same_output_type() -> None:
    """A dict-like output (a ModelOutput without logits) reaches the loss as its own type, with attributes."""

    class Out(dict):
        def __getattr__(self, k: str) -> torch.Tensor:
            return self[k]

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Linear(6, 3)

        def forward(self, x: torch.Tensor) -> Out:
            return Out(scores=self.fc(x))

    batch = (torch.randn(8, 6), torch.arange(8) % 3)
    t = Target(model=Net(), batch=batch, loss_fn=lambda o, y: F.cross_entropy(o.scores, y))
    result = run("loss_coupling", t)
    assert result.status == "passed", result.summary


# --- train_coupling: coupling present in any mode is the dependency probe's question -----------------


class MixRows(nn.Module):
    def __init__(self, norm: bool) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.bn = nn.BatchNorm1d(4) if norm else None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.fc(x)
        return self.bn(h) if self.bn is not None else h + h.mean(0, keepdim=True)  # mixes rows in every mode


def test_coupling_that_eval_mode_has_too_is_not_called_batch_statistics() -> None:
    x = torch.randn(2, 4)
    mixing = run("train_coupling", Target(model=MixRows(norm=False), batch=(x, torch.zeros(2))))
    tiny_bn = run("train_coupling", Target(model=MixRows(norm=True), batch=(x, torch.zeros(2))))
    assert mixing.status == "inconclusive" and not mixing.outcomes, mixing.summary
    assert tiny_bn.status == "failed" and tiny_bn.outcomes == ["train_coupling_strong"]


# --- activations: embedding tables and softplus transforms ----------------------------------------------


class TinyEmbed(nn.Module):
    """Position embeddings initialised tiny (std 1e-3), as libraries do; `bug` scales a linear layer's input 1e4."""

    def __init__(self, bug: bool) -> None:
        super().__init__()
        self.bug = bug
        self.pos = nn.Embedding(8, 16)
        nn.init.normal_(self.pos.weight, std=1e-3)
        self.fc1, self.fc2, self.out = nn.Linear(16, 16), nn.Linear(16, 16), nn.Linear(16, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = x + self.pos(torch.arange(x.shape[1]))  # (B, 8, 16)
        h = self.fc2(F.gelu(self.fc1(h * (1e4 if self.bug else 1.0))))
        return self.out(h.mean(1))


def test_a_tiny_embedding_table_is_no_step_size_alarm() -> None:
    x, y = torch.randn(8, 8, 16), torch.arange(8) % 3
    healthy = run("activations", Target(model=TinyEmbed(False), batch=(x, y), loss_fn=nn.CrossEntropyLoss()))
    assert "exploding_grads" not in healthy.outcomes, healthy.findings


class StepSize(nn.Module):
    """softplus makes a positive step size from a bias near log(0.01), as state-space models do."""

    def __init__(self, act: str) -> None:
        super().__init__()
        self.act = act
        self.fc = nn.Linear(6, 32)
        nn.init.constant_(self.fc.bias, -6.0)
        self.out = nn.Linear(32, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.fc(x)  # (B, 32), inputs around -6
        return self.out(F.softplus(h) if self.act == "softplus" else F.gelu(h))


def test_softplus_as_a_positive_transform_is_not_dead_but_gelu_there_is() -> None:
    x, y = torch.randn(16, 6) * 0.1, torch.arange(16) % 3
    healthy = run("activations", Target(model=StepSize("softplus"), batch=(x, y), loss_fn=nn.CrossEntropyLoss()))
    buggy = run("activations", Target(model=StepSize("gelu"), batch=(x, y), loss_fn=nn.CrossEntropyLoss()))
    assert "dead_units" not in healthy.outcomes
    assert "dead_units" in buggy.outcomes


# --- data_audit: targets with several values per row ----------------------------------------------------


def test_reconstruction_targets_skip_the_label_check_without_error() -> None:
    x = torch.randn(120, 10)
    t = Target(model=nn.Linear(10, 10), batch=(x[:16], x[:16]), loss_fn=nn.MSELoss(), train_data=(x[:90], x[:90]),
               val_data=(x[90:], x[90:]))  # fmt: skip
    result = run("data_audit", t)
    assert result.status in ("passed", "inconclusive"), result.summary
    assert "several label values per row" in str(result.measurements.get("label_check"))


# --- overfit_one_batch: a sampled objective keeps a floor -----------------------------------------------


class VAE(nn.Module):
    def __init__(self, detach: bool) -> None:
        super().__init__()
        self.detach = detach
        self.enc, self.dec = nn.Linear(20, 8), nn.Linear(4, 20)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        mu, logvar = self.enc(x).chunk(2, -1)  # (B, 4) each
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z.detach() if self.detach else z), mu, logvar  # BUG when detach: the encoder never learns


def elbo(out: tuple[torch.Tensor, ...], x: torch.Tensor) -> torch.Tensor:
    rec, mu, logvar = out
    kl = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(-1).mean()
    return F.mse_loss(rec, x, reduction="none").sum(-1).mean() + kl


def test_a_sampled_objective_that_falls_is_no_stall() -> None:
    torch.manual_seed(0)
    x = torch.randn(32, 20)
    result = run("overfit_one_batch", Target(model=VAE(False), batch=(x, x), loss_fn=elbo))
    assert result.status == "inconclusive" and "sampled objective" in result.summary, result.summary


class NoisyFrozen(nn.Module):
    """Samples noise like a VAE, but its weights are frozen (BUG): only a bias can move, the loss barely falls."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(20, 20).requires_grad_(False)
        self.b = nn.Parameter(torch.zeros(20))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(x) + self.b + 0.1 * torch.randn_like(x)


def test_a_sampled_objective_that_cannot_learn_still_stalls() -> None:
    torch.manual_seed(0)
    x = torch.randn(32, 20)
    result = run("overfit_one_batch", Target(model=NoisyFrozen(), batch=(x, x), loss_fn=nn.MSELoss()))
    assert result.status == "failed" and result.outcomes == ["stalled"], result.summary


# --- lr_range: a policy-gradient surrogate has no floor -----------------------------------------------


def policy_loss(logits: torch.Tensor, tgt: torch.Tensor) -> torch.Tensor:
    actions, advantage = tgt[:, 0].long(), tgt[:, 1]
    logp = F.log_softmax(logits, -1).gather(1, actions[:, None]).squeeze(1)
    return 0.7 - (logp * advantage).mean()  # unbounded below once a negative-advantage action's logp sinks


def test_a_loss_without_floor_gets_no_rate_verdict() -> None:
    torch.manual_seed(0)
    s = torch.randn(64, 6)
    tgt = torch.stack([torch.randint(0, 3, (64,)).float(), torch.randn(64)], 1)
    model = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 3))
    result = run("lr_range", Target(model=model, batch=(s, tgt), loss_fn=policy_loss))
    assert result.status == "inconclusive" and "no floor" in result.summary, result.summary


def test_one_example_is_too_few_to_call_relu_units_dead() -> None:
    """A healthy ReLU unit is 0 on a single example half the time: batch size 1 gives no dead-unit verdict."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 3))
    batch = (torch.randn(1, 8), torch.tensor([1]))
    one = run("activations", Target(model=model, batch=batch, loss_fn=nn.CrossEntropyLoss()))
    assert "dead_units" not in one.outcomes and "fewer than 4 examples" in one.summary, one.summary
