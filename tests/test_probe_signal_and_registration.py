"""Probe readings added after reading the -02x batch, each on a buggy model and its healthy twin.

- activations: a forward signal that collapses through depth (tiny init, no skip or norm) is vanishing
  gradients, although the first/last gradient ratio stays near 1;
- step_audit: a plain tensor attribute multiplied like a weight is never trained (`unregistered_tensors`);
  a batch norm put in eval mode by a `freeze_bn()` and set back to training by the user's step still moves;
- nonfinite_trace / init_loss: a masked mean over a mask that kept nothing (0 / 0 in the loss);
- shape_audit: an L2 normalize of a Linear's (B, T, D) output over the tokens (F.normalize's default dim=1);
- attention_scale: unscaled q.k with an additive bias before the softmax;
- data_audit: a few shared groups are a leak, whatever their share.
"""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from debug_agent.schemas import Target

from .test_probes_by_design import run


class DeepMLP(nn.Module):
    """Six hidden layers; `std` sets the init (None: PyTorch's default), `zero_head` zero-initialises the last."""

    def __init__(self, std: float | None, zero_head: bool = False) -> None:
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(19 if i == 0 else 64, 64) for i in range(6))
        self.out = nn.Linear(64, 1)
        for m in [*self.layers, self.out]:
            if std is not None:
                nn.init.normal_(m.weight, 0.0, std)
                nn.init.zeros_(m.bias)
        if zero_head:
            nn.init.zeros_(self.out.weight)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in self.layers:
            x = F.leaky_relu(layer(x), 0.02)  # (B, 64)
        return torch.sigmoid(self.out(x)).squeeze(-1)


@pytest.mark.parametrize(
    ("std", "zero_head", "vanishes"), [(0.02, False, True), (None, False, False), (None, True, False)]
)
def test_a_signal_collapsing_through_depth_is_vanishing_gradients(std: float | None, zero_head: bool, vanishes: bool):
    torch.manual_seed(0)
    x, y = torch.rand(32, 19) * 2 - 1, (torch.rand(32) > 0.5).float()
    r = run("activations", Target(model=DeepMLP(std, zero_head), batch=(x, y), loss_fn=F.mse_loss))
    assert ("vanishing_grads" in r.outcomes) is vanishes, (r.outcomes, r.measurements)
    assert ("healthy_grad_flow" in r.outcomes) is not vanishes


class Memory(nn.Module):
    """Keys and values recalled by attention; `registered`: nn.Parameter (healthy), else plain tensors."""

    def __init__(self, registered: bool) -> None:
        super().__init__()
        keys, values = torch.randn(8, 16), torch.randn(8, 16)
        wrap = nn.Parameter if registered else (lambda t: t)
        self.keys, self.values = wrap(keys), wrap(values)
        self.enc = nn.Linear(16, 16)
        self.pos = torch.sin(torch.arange(16.0))[None].repeat(4, 1)  # a constant table, added: not a weight
        self.state = torch.zeros(4, 16)  # carried between calls and reassigned: not a weight either

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        q = self.enc(x) + self.pos  # (B, 16)
        attn = torch.softmax(q @ self.keys.t() / 4, dim=-1)  # (B, 8)
        out = attn @ self.values + self.state @ self.enc.weight
        self.state = out.detach()
        return out


@pytest.mark.parametrize("registered", [False, True])
def test_plain_tensors_used_as_weights_are_never_trained(registered: bool):
    torch.manual_seed(0)
    x = torch.randn(4, 16)
    r = run("step_audit", Target(model=Memory(registered), batch=(x, x), loss_fn=F.mse_loss))
    assert ("unregistered_tensors" in r.outcomes) is not registered, (r.outcomes, r.summary)
    assert ("params_updated" in r.outcomes) is registered
    if not registered:
        text = " ".join(f.text for f in r.findings)
        assert "keys" in text and "values" in text and "pos" not in text and "state" not in text


class TiedView(nn.Module):
    """A decoder that reads the encoder's weight through a plain attribute holding a view of its storage."""

    def __init__(self) -> None:
        super().__init__()
        self.enc = nn.Linear(16, 8)
        self.dec_weight = self.enc.weight.data  # (8, 16): the encoder's own storage, trained through it

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.tanh(self.enc(x)) @ self.dec_weight  # (B, 16)


def test_a_plain_view_of_a_registered_weight_is_not_an_untrained_weight():
    torch.manual_seed(0)
    x = torch.randn(4, 16)
    r = run("step_audit", Target(model=TiedView(), batch=(x, x), loss_fn=F.mse_loss))
    assert "unregistered_tensors" not in r.outcomes, r.summary


class FrozenBN(nn.Module):
    """A conv net whose batch norm is put in eval by freeze_bn(); `keep` re-freezes it in train()."""

    def __init__(self, keep: bool) -> None:
        super().__init__()
        self.keep = keep
        self.enc = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.Conv2d(8, 1, 1))
        self.freeze_bn()

    def freeze_bn(self) -> None:
        for m in self.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.eval()

    def train(self, mode: bool = True) -> FrozenBN:
        super().train(mode)
        if self.keep:
            self.freeze_bn()
        return self

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.enc(x)


def _step(model: nn.Module, batch: tuple, optimizer: torch.optim.Optimizer, loss_fn) -> torch.Tensor:
    model.train()
    optimizer.zero_grad()
    loss = loss_fn(model(batch[0]), batch[1])
    loss.backward()
    optimizer.step()
    return loss


@pytest.mark.parametrize("keep", [False, True])
def test_a_freeze_bn_undone_by_the_step_moves_the_statistics(keep: bool):
    torch.manual_seed(0)
    x = torch.rand(4, 3, 8, 8) * 3 + 1
    t = Target(model=FrozenBN(keep), batch=(x, x[:, :1]), loss_fn=F.l1_loss, train_step=_step)
    r = run("step_audit", t)
    assert ("frozen_stats_moved" in r.outcomes) is not keep, (r.outcomes, r.summary)


def _masked_loss(logits: torch.Tensor, targets: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
    ids, mask = targets
    tok = F.cross_entropy(logits.flatten(0, 1), ids.flatten(), reduction="none")  # (B*T,)
    m = mask.flatten()
    return (tok * m).sum() / m.sum()


class Normalised(nn.Module):
    """A token model whose forward divides by each row's sum (0 / 0 for an all-zero row): a forward NaN."""

    def __init__(self) -> None:
        super().__init__()
        self.emb, self.head = nn.Embedding(10, 8), nn.Linear(8, 10)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.emb(ids)) * (ids > 0)[..., None]  # (B, T, 8); padding rows are all zero
        return self.head(h / h.sum(-1, keepdim=True))


@pytest.mark.parametrize("kept", [0, 5])
def test_a_masked_mean_over_nothing_is_an_empty_loss_mean(kept: int):
    torch.manual_seed(0)
    ids = torch.randint(1, 10, (2, 6))
    mask = torch.zeros(2, 6)
    mask[0, :kept] = 1
    model = nn.Sequential(nn.Embedding(10, 8), nn.Linear(8, 10))
    t = Target(model=model, batch=(ids, (ids, mask)), loss_fn=_masked_loss)
    r = run("nonfinite_trace", t, steps=0)
    assert ("empty_loss_mean" in r.outcomes) is (kept == 0), r.summary
    assert r.status == ("failed" if kept == 0 else "passed")
    init = run("init_loss", t)
    assert ("loss_inputs_ok" in init.outcomes) is (kept > 0)  # a NaN loss says nothing good of its inputs


def test_a_zero_division_in_forward_is_not_a_mean_over_nothing():
    ids = torch.tensor([[1, 2, 0, 0], [3, 4, 5, 0]])
    t = Target(model=Normalised(), batch=(ids, ids), loss_fn=lambda o, y: F.cross_entropy(o.flatten(0, 1), y.flatten()))
    r = run("nonfinite_trace", t, steps=0)
    assert "nonfinite_forward" in r.outcomes and "empty_loss_mean" not in r.outcomes, r.summary


class TokenProjection(nn.Module):
    """Linear then L2 normalize of (B, T, D) features; `dim` None uses F.normalize's default (dim=1)."""

    def __init__(self, dim: int | None, conv: bool = False) -> None:
        super().__init__()
        self.dim, self.conv = dim, conv
        self.fc = nn.Conv1d(12, 16, 1) if conv else nn.Linear(12, 16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (B, T, 12)
        h = self.fc(x.transpose(1, 2)) if self.conv else self.fc(x)  # (B, 16, T) or (B, T, 16)
        h = F.normalize(h) if self.dim is None else F.normalize(h, dim=self.dim)
        return h.mean(-1 if self.conv else 1)


@pytest.mark.parametrize(("dim", "conv", "flagged"), [(None, False, True), (-1, False, False), (None, True, False)])
def test_a_normalize_off_a_linears_features_is_the_wrong_dim(dim: int | None, conv: bool, flagged: bool):
    torch.manual_seed(0)
    x = torch.randn(8, 10, 12)
    t = Target(model=TokenProjection(dim, conv), batch=(x, torch.randn(8, 16)), loss_fn=F.mse_loss)
    r = run("shape_audit", t)
    assert ("norm_off_features" in r.outcomes) is flagged, (r.outcomes, r.summary)


class BiasedAttention(nn.Module):
    """q.k plus a learned pair bias into the softmax; `scaled` divides q.k by sqrt(d) first."""

    def __init__(self, scaled: bool) -> None:
        super().__init__()
        self.scaled = scaled
        self.qkv, self.bias = nn.Linear(256, 768, bias=False), nn.Linear(4, 1, bias=False)

    def forward(self, x: torch.Tensor, pair: torch.Tensor) -> torch.Tensor:  # (B, N, 256), (B, N, N, 4)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(-2, -1)  # (B, N, N)
        scores = (scores / 16 if self.scaled else scores) + self.bias(pair).squeeze(-1)
        return torch.softmax(scores, dim=-1) @ v


@pytest.mark.parametrize("scaled", [False, True])
def test_an_additive_bias_keeps_unscaled_scores_visible(scaled: bool):
    torch.manual_seed(0)
    x, pair = torch.randn(2, 24, 256), torch.randn(2, 24, 24, 4)
    t = Target(model=BiasedAttention(scaled), batch=((x, pair), x), loss_fn=F.mse_loss)
    r = run("attention_scale", t)
    assert ("attention_saturated" in r.outcomes) is not scaled, r.summary


@pytest.mark.parametrize(("shared", "overlap"), [(6, True), (0, False)])
def test_a_few_shared_groups_are_a_leak(shared: int, overlap: bool):
    torch.manual_seed(0)
    xt, xv = torch.randn(200, 6), torch.randn(1000, 6)
    yt, yv = xt[:, 0], xv[:, 0]
    train_groups = list(range(200))
    val_groups = list(range(1000, 2000))
    val_groups[:shared] = train_groups[:shared]  # 0.6% of the validation rows: under the row threshold
    t = Target(
        model=nn.Linear(6, 1),
        batch=(xt[:32], yt[:32]),
        loss_fn=lambda o, y: F.mse_loss(o.squeeze(-1), y),
        train_data=(xt, yt),
        val_data=(xv, yv),
        groups=(train_groups, val_groups),
    )
    r = run("data_audit", t)
    assert ("groups_overlap" in r.outcomes) is overlap, (r.outcomes, r.summary)
    assert ("groups_disjoint" in r.outcomes) is not overlap


class ZeroStateCell(nn.Module):
    """A hand-written recurrent cell whose state starts at zero: its first recurrent call sees h0 = 0."""

    def __init__(self) -> None:
        super().__init__()
        self.inp, self.wx, self.wh, self.head = nn.Linear(8, 16), nn.Linear(16, 32), nn.Linear(32, 32), nn.Linear(32, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (B, T, 8)
        h = x.new_zeros(x.shape[0], 32)
        for t in range(x.shape[1]):
            h = torch.tanh(self.wx(self.inp(x[:, t])) + self.wh(h))  # (B, 32)
        return self.head(h)


def test_an_initial_zero_state_is_not_a_collapsed_signal():
    torch.manual_seed(0)
    x, y = torch.randn(16, 12, 8), torch.randint(0, 3, (16,))
    r = run("activations", Target(model=ZeroStateCell(), batch=(x, y), loss_fn=F.cross_entropy))
    assert not any("collapses" in f.text for f in r.findings), r.summary
    assert r.measurements["depth_signal_ratio"] > 1e-3
