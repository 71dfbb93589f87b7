"""The Observer in-process: what it records from real torch loops, and the Target captured from it."""

from __future__ import annotations

import inspect

import pytest
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from debug_agent.isolation import capture
from debug_agent.isolation.observe import Intervention, Observer, StepLimitReached
from debug_agent.schemas import Target, TrainObservation


def _data(n: int = 96) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(0)
    x = torch.randn(n, 5, generator=g)
    return x, (x[:, 0] > 0).long()


def _model() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Dropout(0.3), nn.Linear(8, 2))


def _loop(model, opt, loader, *, zero_grad=True, eval_mode=True, epochs=3):
    for _ in range(epochs):
        model.train()
        for x, y in loader:
            if zero_grad:
                opt.zero_grad()
            loss = F.cross_entropy(model(x), y, label_smoothing=0.1)
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
        if eval_mode:
            model.eval()
        with torch.no_grad():
            for x, _ in loader:
                model(x)


def _observe(max_steps=4, **kw) -> Observer:
    x, y = _data()
    model = _model()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
    obs = Observer(max_steps=max_steps)
    with pytest.raises(StepLimitReached), obs:
        _loop(model, opt, DataLoader(TensorDataset(x, y), batch_size=16), **kw)
    return obs


def test_healthy_loop_is_recorded_with_lines():
    obs = _observe()
    rec = obs.observation()
    assert len(rec.steps) == 4 and all(s.kind == "optimizer" for s in rec.steps)
    assert [s.grads_cleared for s in rec.steps] == [None, True, True, True]
    assert rec.steps[0].lr == [3e-3] and rec.steps[0].grad_norms[0] is not None
    assert rec.steps[0].backward_where.code == "loss.backward()"
    assert rec.loss.name == "cross_entropy" and rec.loss.kwargs == {"label_smoothing": 0.1}
    evals = [p for p in rec.passes if p.role == "eval"]
    assert evals and not evals[0].modes_train and evals[0].modes_eval == ["2"]  # evaluation after the epoch ended
    assert sorted(ld.role for ld in rec.loaders) == ["eval", "train"]  # one loader, iterated at two lines
    assert not rec.params_never_grad and not rec.params_never_changed
    TrainObservation.model_validate_json(rec.model_dump_json())  # JSON round trip


def test_missing_zero_grad_and_eval_in_train_mode():
    rec = _observe(zero_grad=False, eval_mode=False).observation()
    assert [s.grads_cleared for s in rec.steps][1:] == [False, False, False]
    evals = [p for p in rec.passes if p.role == "eval"]
    assert evals and evals[0].modes_train == ["2"] and evals[0].where.code == "model(x)"


def test_hooks_are_removed():
    before = (torch.Tensor.backward, torch.autograd.backward, F.cross_entropy, DataLoader.__iter__)
    _observe()
    assert (torch.Tensor.backward, torch.autograd.backward, F.cross_entropy, DataLoader.__iter__) == before
    assert inspect.getmodule(F.cross_entropy) is F


def test_hand_written_updates_are_steps():
    x, y = _data()
    model = _model()
    obs = Observer(max_steps=3)
    with pytest.raises(StepLimitReached), obs:
        for _ in range(20):
            model.zero_grad()
            F.cross_entropy(model(x), y).backward()
            for p in model.parameters():
                p.data.add_(p.grad, alpha=-0.1)
    rec = obs.observation()
    assert [s.kind for s in rec.steps] == ["manual"] * 3
    assert rec.steps[1].grads_cleared is True and rec.steps[0].params_changed == 4


def test_capture_builds_a_target_from_the_first_step():
    x, y = _data()
    model = _model()
    start = [p.detach().clone() for p in model.parameters()]
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)
    obs = Observer(max_steps=2)
    with pytest.raises(StepLimitReached), obs:
        _loop(model, opt, DataLoader(TensorDataset(x, y), batch_size=16))
    raw, notes = capture.target_from(obs.captured, obs.observation(), "loop")
    t = Target.model_validate(raw)
    assert all(torch.equal(a, b) for a, b in zip(start, t.model.parameters(), strict=True))  # the step-0 snapshot
    assert t.inputs[0].shape == (16, 5) and torch.equal(t.targets, y[:16])
    built = t.optimizer(t.model.parameters())
    assert type(built) is torch.optim.SGD and built.defaults["momentum"] == 0.5
    assert float(t.loss_fn(t.model(*t.inputs), t.targets).detach()) > 0
    assert t.train_data[0].shape == (32, 5) and not notes


def test_repeat_first_batch_intervention():
    x, y = _data()
    model = _model()
    seen = []
    obs = Observer(max_steps=3, intervention=Intervention(kind="repeat_first_batch"))
    with obs:  # at the bound the training loader's epoch ends (evaluation would run next)
        for xb, _ in DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True):
            seen.append(xb)
            model(xb).sum().backward()
            torch.optim.SGD(model.parameters(), lr=0.1).step()
    assert len(seen) == 3 and all(torch.equal(seen[0], s) for s in seen)


def test_lr_sweep_scales_and_restores_the_rate():
    x, y = _data()
    model = _model()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    obs = Observer(max_steps=3, intervention=Intervention(kind="lr_sweep", lr_factors=[0.5, 1.0, 2.0]))
    with pytest.raises(StepLimitReached), obs:
        for _ in range(5):
            opt.zero_grad()
            F.cross_entropy(model(x), y).backward()
            opt.step()
    assert [s.lr[0] for s in obs.observation().steps] == pytest.approx([0.05, 0.1, 0.2])
    assert opt.param_groups[0]["lr"] == 0.1
