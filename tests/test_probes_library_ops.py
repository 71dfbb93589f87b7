"""Ops inside library code and contained non-finite intermediates are not evidence against the user.

A tiny "library" (a module under a site-packages folder, as an installed package would be) computes a
relative-position bias the way encoder-decoder libraries do: a broadcast of (Q,) against (Q,1) and an
intended log(0) that is clamped away. shape_audit and nonfinite_trace note both and pass; the same
broadcast in the user's own forward, and a log(0) that reaches the loss, still fail.
"""

from __future__ import annotations

import importlib.util
import sys
import textwrap

import pytest
import torch
from torch import nn

import debug_agent.probes as P
from debug_agent.isolation import probe_registry
from debug_agent.schemas import ProbeResult, Target

LIBRARY = '''
import math
import torch
from torch import nn


class RelativeBias(nn.Module):
    """A relative-position bias with log-spaced buckets (library code, not the user's)."""

    def __init__(self, buckets=8, heads=2):
        super().__init__()
        self.buckets = buckets
        self.bias = nn.Embedding(buckets, heads)

    def forward(self, length):
        pos = torch.arange(length)
        rel = (pos - pos[:, None]).abs()  # (Q,) against (Q, 1): a deliberate pairwise broadcast
        exact = self.buckets // 2
        # log(0) on the diagonal is intended: torch.where below keeps the exact bucket there.
        far = exact + (torch.log(rel.float() / exact) / math.log(4) * exact).clamp(max=self.buckets - 1 - exact)
        bucket = torch.where(rel < exact, rel, far.nan_to_num(0).long()).clamp(0, self.buckets - 1)
        return self.bias(bucket).permute(2, 0, 1)  # (heads, Q, K)
'''


@pytest.fixture(scope="module")
def tinylib(tmp_path_factory):
    folder = tmp_path_factory.mktemp("env") / "site-packages"
    folder.mkdir()
    (folder / "tinylib_relpos.py").write_text(textwrap.dedent(LIBRARY))
    spec = importlib.util.spec_from_file_location("tinylib_relpos", folder / "tinylib_relpos.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["tinylib_relpos"] = mod
    spec.loader.exec_module(mod)
    yield mod
    sys.modules.pop("tinylib_relpos", None)


class Encoder(nn.Module):
    """The user's model: attention with the library's relative bias."""

    def __init__(self, lib, user_broadcast: bool = False, user_log0: bool = False):
        super().__init__()
        self.rel = lib.RelativeBias()
        self.emb = nn.Embedding(20, 8)
        self.out = nn.Linear(8, 20)
        self.user_broadcast, self.user_log0 = user_broadcast, user_log0

    def forward(self, ids):
        h = self.emb(ids)  # (B, T, 8)
        bias = self.rel(ids.shape[1]).mean(0)  # (T, T)
        att = (h @ h.transpose(1, 2) / 8**0.5 + bias).softmax(-1)
        h = att @ h
        if self.user_broadcast:
            h = h + h.mean(-1)  # bug: (B, T, 8) + (B, T) -> stretched when B == T
        if self.user_log0:
            h = h + torch.log(torch.zeros_like(h))  # bug: -inf reaches the loss
        return self.out(h)


def _target(lib, **bugs) -> Target:
    torch.manual_seed(0)
    ids = torch.randint(0, 20, (4, 6), generator=torch.Generator().manual_seed(1))
    return Target(
        model=Encoder(lib, **bugs),
        batch=(ids, ids),
        loss_fn=lambda out, y: nn.functional.cross_entropy(out.flatten(0, 1), y.flatten()),
    )


def run(name: str, target: Target, **options) -> ProbeResult:
    probe_registry()
    return P.execute(name, target, P.ProbeContext(seed=0, budget_s=60), options)


def test_shape_audit_notes_library_broadcast_without_blaming_the_user(tinylib):
    r = run("shape_audit", _target(tinylib))
    assert r.status == "passed" and r.outcomes == ["shapes_consistent"], (r.summary, r.findings)
    assert r.measurements["library_hazards"] >= 1
    assert all(f.data.get("library") for f in r.findings) and "library code" in r.summary


def test_shape_audit_still_flags_the_users_broadcast(tinylib):
    class Bad(nn.Module):
        def __init__(self):
            super().__init__()
            self.enc = Encoder(tinylib)

        def forward(self, ids):
            out = self.enc(ids)  # (B, T, V)
            return out.sum((1, 2))[:, None] - out.mean((1, 2))  # bug: (B, 1) - (B,) -> (B, B)

    t = _target(tinylib)
    t = Target(model=Bad(), batch=(t.batch[0], torch.zeros(4)))
    r = run("shape_audit", t)
    assert r.status == "failed" and "broadcast_expansion" in r.outcomes
    assert any(f.where and "test_probes_library_ops.py" in f.where for f in r.findings)


def test_nonfinite_trace_notes_a_clamped_log0(tinylib):
    r = run("nonfinite_trace", _target(tinylib), steps=3)
    assert r.status == "passed" and r.outcomes == ["all_finite"], r.summary
    assert r.measurements["contained_nonfinite_op"] == "log"
    assert any(f.data.get("contained") and "library code" in f.text for f in r.findings)


def test_nonfinite_trace_fails_a_log0_that_reaches_the_loss(tinylib):
    r = run("nonfinite_trace", _target(tinylib, user_log0=True), steps=3)
    assert r.status == "failed" and r.outcomes[0] == "nonfinite_forward"  # (and log_of_zero: a log of an exact 0)
    # The first non-finite op is the library's contained log; the user's log follows. Either way the
    # report points at a log; what matters is that a non-finite loss still fails.
    assert "log" in r.summary


class Float32Norm(nn.Module):
    """RMSNorm the way decoder libraries write it: computed in float32 whatever the input dtype."""

    def __init__(self, dim: int) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        dtype = x.dtype
        x = x.to(torch.float32)
        x = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)
        return self.weight * x.to(dtype)


def test_grad_check_float32_path_is_inconclusive_and_repeatable():
    """No hand-written backward: a float32 cast inside forward is explained, never autograd.wrong_backward."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Embedding(20, 8), Float32Norm(8), nn.Linear(8, 20))
    ids = torch.randint(0, 20, (4, 6), generator=torch.Generator().manual_seed(1))
    t = Target(
        model=model,
        batch=(ids, ids),
        loss_fn=lambda out, y: nn.functional.cross_entropy(out.flatten(0, 1), y.flatten()),
    )
    a, b = run("grad_check", t), run("grad_check", t)
    assert a.status in ("inconclusive", "passed") and "grads_mismatch" not in a.outcomes, a.summary
    assert a.measurements["handwritten_backward"] == []
    assert a.measurements == b.measurements and a.summary == b.summary


def test_a_model_of_torch_modules_alone_is_the_users_code():
    """nn.Sequential(..., nn.Softmax(dim=0)): no frame of the user's on the stack, yet the user composed it."""
    torch.manual_seed(0)
    t = Target(model=nn.Sequential(nn.Linear(4, 3), nn.Softmax(dim=0)), batch=(torch.randn(8, 4), torch.zeros(8)))
    r = run("shape_audit", t)
    assert r.status == "failed" and "norm_over_batch" in r.outcomes, r.summary
