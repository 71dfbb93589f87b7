"""The target protocol meets ordinary code: the batch as given, dict/tuple inputs, call_model,
sequence-first inputs, any data form, optimizers built by the model, metrics reading `.logits`;
and copies that share nothing with the user's objects (or `error` probes that say what leaks)."""

from __future__ import annotations

import copy
import runpy
from pathlib import Path

import pytest
import torch
from torch import nn

import debug_agent.probes as P
from debug_agent.api import make_target
from debug_agent.errors import TargetError
from debug_agent.isolation import probe_registry
from debug_agent.probes._common import build_optimizer, copy_model, main_tensor
from debug_agent.probes._data import data_rows
from debug_agent.schemas import ProbeResult, Target

from .conftest import report_of

HERE = Path(__file__).parent / "protocol_targets"


def run(name: str, target: Target, **options) -> ProbeResult:
    probe_registry()
    return P.execute(name, target, P.ProbeContext(seed=0, budget_s=60), options)


def test_the_batch_reaches_user_functions_as_given():
    seen = []

    def step(model, batch, opt, loss_fn):
        seen.append(batch)
        x, y = batch  # ordinary code: no ((x,), y) rewrite
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        return loss

    def evaluate(model, batch):
        seen.append(batch)
        x, _ = batch
        return model(x)

    torch.manual_seed(0)
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    t = make_target(model=nn.Linear(4, 1), batch=[x, y], loss_fn=nn.MSELoss(), train_step=step, eval_fn=evaluate)
    assert t.batch[0] is x  # kept, not rebuilt
    for name in ("overfit_one_batch", "mode_audit", "step_audit"):
        assert run(name, t).status != "error", name
    # The whole batch, or its first rows when overfit_one_batch retries a stall on a few rows: same structure.
    shapes = ((8, 4), (2, 4))
    assert seen and all(type(b) is list and isinstance(b[0], torch.Tensor) and b[0].shape in shapes for b in seen)


class DictNet(nn.Module):
    def __init__(self, mix: bool = False) -> None:
        super().__init__()
        self.emb = nn.Embedding(20, 8)
        self.head = nn.Linear(8, 3)
        self.mix = mix

    def forward(self, input_ids, attention_mask):
        h = self.emb(input_ids) * attention_mask[..., None]
        if self.mix:
            h = h + h.mean(0, keepdim=True)  # rows leak into each other
        return {"logits": self.head(h.mean(1))}


@pytest.mark.parametrize("mix,status", [(False, "passed"), (True, "failed")])
def test_dict_inputs_are_called_as_keywords(mix, status):
    torch.manual_seed(0)
    ids = torch.randint(0, 20, (8, 5))
    t = make_target(
        model=DictNet(mix),
        batch=({"input_ids": ids, "attention_mask": torch.ones(8, 5)}, ids[:, 0] % 3),
        loss_fn=lambda out, y: nn.functional.cross_entropy(out["logits"], y),
    )
    assert run("dependency", t).status == status
    assert run("shape_audit", t).status != "error"


class TwoTower(nn.Module):
    """forward(self, inputs) unpacks (users, items) itself, as many recommender and pair models do."""

    def __init__(self, mix: bool = False) -> None:
        super().__init__()
        self.users, self.items = nn.Embedding(10, 4), nn.Embedding(12, 4)
        self.mix = mix

    def forward(self, inputs):
        u, i = inputs
        score = (self.users(u) * self.items(i)).sum(-1)  # (B,)
        return score + score.mean() if self.mix else score  # `mix`: every row sees the batch mean


@pytest.mark.parametrize("mix,status", [(False, "passed"), (True, "failed")])
def test_a_forward_taking_the_input_tuple_whole_is_called_with_it(mix, status):
    g = torch.Generator().manual_seed(0)
    users, items = torch.randint(0, 10, (8,), generator=g), torch.randint(0, 12, (8,), generator=g)
    t = make_target(model=TwoTower(mix), batch=((users, items), torch.randn(8, generator=g)), loss_fn=nn.MSELoss())
    plain = TwoTower(mix)  # plain torch, called the user's way
    plain.load_state_dict(t.model.state_dict())
    assert torch.equal(P._common.forward(t, t.model, t.batch[0]), plain((users, items)))
    assert run("dependency", t).status == status


def test_a_forward_taking_as_many_arguments_as_inputs_is_still_called_with_them_spread():
    t = make_target(model=DictNet(), batch=((torch.zeros(2, 5, dtype=torch.long), torch.ones(2, 5)), torch.zeros(2)))
    assert t.call_model is None


class SeqFirstLSTM(nn.Module):
    """(T, B) tokens and an explicit hidden state, like the PyTorch word language model."""

    def __init__(self, leak: bool = False) -> None:
        super().__init__()
        self.emb = nn.Embedding(30, 8)
        self.rnn = nn.LSTM(8, 8)
        self.out = nn.Linear(8, 30)
        self.leak = leak

    def init_hidden(self, bsz: int) -> tuple[torch.Tensor, torch.Tensor]:
        return torch.zeros(1, bsz, 8), torch.zeros(1, bsz, 8)

    def forward(self, tokens, hidden):
        h, hidden = self.rnn(self.emb(tokens), hidden)
        if self.leak:
            h = h + h.flip(1)  # batch rows swapped into each other
        return self.out(h), hidden


@pytest.mark.parametrize("leak,status", [(False, "passed"), (True, "failed")])
def test_sequence_first_inputs_with_hidden_state(leak, status):
    torch.manual_seed(0)
    tokens = torch.randint(0, 30, (6, 4))  # (T, B)
    t = make_target(
        model=SeqFirstLSTM(leak),
        batch=(tokens, tokens),
        call_model=lambda model, x: model(x, model.init_hidden(x.shape[1]))[0],
        batch_axis=1,
        causal=True,
        sequence_dim=0,
        loss_fn=lambda out, y: nn.functional.cross_entropy(out.reshape(-1, 30), y.reshape(-1)),
    )
    assert t.batch_size == 4
    r = run("dependency", t)
    assert r.status == status, r.summary
    if not leak:
        assert "causal_ok" in r.outcomes
    assert run("overfit_one_batch", t).status != "error"


def test_plain_user_code_runs_every_probe_without_error():
    t = make_target(**runpy.run_path(str(HERE / "plain_pair.py"))["make_target"]())
    probe_registry()
    errors = {n: r.summary for n in P.REGISTRY if (r := run(n, t)).status == "error"}
    assert not errors
    assert run("data_audit", t).measurements["train_examples"] == 192
    assert run("metric_audit", t).status == "passed"
    assert "params_not_updated" not in run("step_audit", t).outcomes


def test_optimizer_factories_taking_params_or_model():
    model = nn.Linear(3, 2)
    for factory in (
        lambda p: torch.optim.SGD(p, lr=0.1),
        lambda model: torch.optim.SGD(model.parameters(), lr=0.1),
        torch.optim.Adam,
        lambda m: {"optimizer": torch.optim.SGD(m.parameters(), lr=1)},
    ):
        opt = build_optimizer(factory, model)
        assert isinstance(opt, torch.optim.Optimizer)
        assert {id(p) for g in opt.param_groups for p in g["params"]} == {id(p) for p in model.parameters()}


class _WrappedAdam:
    """An optimizer wrapper as real repositories write them (one-cycle lr, decoupled weight decay)."""

    def __init__(self, params) -> None:
        self.inner = torch.optim.Adam(list(params), lr=1e-2)
        self.param_groups = self.inner.param_groups

    def zero_grad(self, set_to_none: bool = True) -> None:
        self.inner.zero_grad(set_to_none=set_to_none)

    def step(self) -> None:
        self.inner.step()


def test_an_optimizer_like_wrapper_is_accepted_and_steps_the_copy():
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    batch = (torch.randn(8, 4), torch.randn(8, 1))
    t = make_target(model=model, batch=batch, loss_fn=nn.MSELoss(), optimizer=_WrappedAdam)
    before = copy.deepcopy(model.state_dict())
    r = run("step_audit", t)
    assert r.status == "passed" and "params_updated" in r.outcomes, r.summary
    assert all(torch.equal(before[k], v) for k, v in model.state_dict().items())


def test_optimizer_closing_over_the_original_model_trains_the_probes_copy():
    """`lambda p: SGD(model.parameters())` means "an optimizer over this model": the probe's copy stands in."""
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    t = make_target(
        model=model,
        batch=(torch.randn(8, 4), torch.randn(8, 1)),
        loss_fn=nn.MSELoss(),
        optimizer=lambda p: torch.optim.SGD(model.parameters(), lr=0.1),
    )
    before = copy.deepcopy(model.state_dict())
    r = run("overfit_one_batch", t)
    assert r.status == "passed", r.summary
    assert all(torch.equal(before[k], v) for k, v in model.state_dict().items())


def test_data_in_every_form():
    x, y = torch.randn(50, 3), torch.randint(0, 2, (50,))
    ds = torch.utils.data.TensorDataset(x, y)
    forms = [(x, y), ds, torch.utils.data.DataLoader(ds, batch_size=16), [(x[:25], y[:25]), (x[25:], y[25:])][::1]]
    for data in forms[:3]:
        xs, ys = data_rows(data, 40)
        assert xs.shape == (40, 3) and torch.equal(ys, y[:40])
    xs, ys = data_rows(iter(forms[3]), 30)  # an iterable of batches
    assert xs.shape == (30, 3)
    xs, ys = data_rows(forms[3], 30)  # a plain list of batches, not a list of examples
    assert xs.shape == (30, 3) and torch.equal(ys, y[:30])


def test_main_tensor_reads_logits_objects():
    from types import SimpleNamespace

    logits = torch.randn(2, 3)
    assert main_tensor(SimpleNamespace(loss=torch.tensor(1.0), logits=logits)) is logits
    assert main_tensor({"loss": torch.tensor(1.0), "logits": logits}) is logits
    assert main_tensor((logits, (torch.zeros(1), torch.zeros(1)))) is logits


@pytest.mark.parametrize(
    "fields,needle",
    [
        ({"batch": ("not a tensor", torch.zeros(2))}, "call_model"),
        ({"batch": (torch.randn(4, 3), torch.zeros(4)), "batch_axis": 3}, "batch_axis"),
        ({"batch": ((torch.randn(4, 3), torch.randn(5, 3)), torch.zeros(4))}, "batch_axis"),
        ({"batch": (torch.randn(4, 3), torch.zeros(4)), "batch_axis": "first"}, "batch_axis"),
    ],
)
def test_protocol_values_of_the_wrong_kind(fields, needle):
    with pytest.raises(TargetError) as exc:
        make_target(model=nn.Linear(3, 1), **fields)
    assert needle in exc.value.what


# --- isolation ------------------------------------------------------------------------------------


def test_deep_copy_of_a_closure_model_is_detected_and_probes_error():
    t = make_target(**runpy.run_path(str(HERE / "closure_gpt.py"))["make_target"]())
    r = run("mode_audit", t)
    assert r.status == "error"
    assert "h.0.mlpf is a closure over the original's modules" in r.summary
    assert run("data_audit", t).status != "error"  # needs no model copy


def test_original_modules_never_run_while_a_copy_runs():
    """With a factory (what the worker has), probes get fresh models: the original's hooks stay silent."""
    mk = runpy.run_path(str(HERE / "closure_gpt.py"))["make_target"]
    from debug_agent.probes._isolate import prepare

    t = make_target(**mk())
    prepare(t, factory=lambda: mk()["model"])
    assert t._isolation_issue is None and t._copier is not None
    fired = []
    for n, m in t.model.named_modules():
        m.register_forward_pre_hook(lambda _m, _a, n=n: fired.append(n))
    dup = copy_model(t)
    dup.train()(torch.randn(8, 16))
    assert not fired
    assert all(torch.equal(a, b) for a, b in zip(t.model.state_dict().values(), dup.state_dict().values(), strict=True))
    ptrs = {p.data_ptr() for p in t.model.parameters()}
    assert not any(p.data_ptr() in ptrs for p in dup.parameters())


def test_healthy_model_copy_is_a_plain_deep_copy():
    t = make_target(model=nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5)), batch=(torch.randn(4, 4), None))
    copy_model(t)
    assert t._isolation_issue is None and t._copier is None


def test_cli_uses_fresh_models_for_a_closure_model(run_cli):
    rep = report_of(
        run_cli(
            "ask",
            "val accuracy is noisy",
            "--target",
            str(HERE / "closure_gpt.py"),
            "--format",
            "json",
            "--offline",
            "--probe",
            "mode_audit",
            "--probe",
            "dependency",
        )
    )
    probes = {p["name"]: p for p in rep["probes"]}
    assert probes["mode_audit"]["status"] == "passed" and probes["dependency"]["status"] == "passed"


def test_cli_reports_what_leaks_when_nothing_can_be_isolated(run_cli):
    rep = report_of(
        run_cli(
            "ask",
            "loss is odd",
            "--target",
            str(HERE / "global_leak.py"),
            "--format",
            "json",
            "--offline",
            "--probe",
            "dependency",
            "--probe",
            "overfit_one_batch",
        )
    )
    for p in rep["probes"]:
        assert p["status"] == "error" and "not isolated" in p["summary"], p
        assert "the original's h" not in p["summary"]
    assert rep["cause_id"] == "none" or all(h["status"] != "supported" for h in rep["hypotheses"][:1])
