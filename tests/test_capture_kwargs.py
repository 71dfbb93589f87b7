"""Capture from runs the Hugging Face way (`model(input_ids=..., labels=...)`, loss inside forward, read
from `output.loss`) and the observed evaluation replayed as the captured target's eval_fn.

In-process Observer on real torch loops (our own small models reproducing the pattern); the probes run
on the captured Target exactly as `ask -- python train.py` runs them.
"""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader

from debug_agent.isolation import capture, scripted
from debug_agent.isolation.observe import Observer, StepLimitReached
from debug_agent.schemas import Target

from .test_probes_blindspots import run

VOCAB, T = 32, 12


class KwargsClassifier(nn.Module):
    """A sequence classifier with a Hugging Face-style signature: keyword inputs, loss from `labels`,
    a dict output holding `loss` and `logits` (as `ModelOutput` is a dict)."""

    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 16)
        self.drop = nn.Dropout(0.3)
        self.head = nn.Linear(16, 2)

    def forward(self, input_ids, attention_mask=None, labels=None, return_dict=True):
        h = self.embed(input_ids)
        if attention_mask is not None:
            h = h * attention_mask[..., None]
        logits = self.head(self.drop(h.mean(1)))
        loss = nn.CrossEntropyLoss()(logits, labels) if labels is not None else None
        return {"loss": loss, "logits": logits}


def _tokens(n: int, shuffle: bool) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(0)
    y = torch.randint(0, 2, (n,), generator=g)
    own = torch.randint(0, VOCAB // 2, (n, T), generator=g) + (VOCAB // 2) * y[:, None]
    ids = torch.where(torch.rand(n, T, generator=g) < 0.8, own, torch.randint(0, VOCAB, (n, T), generator=g))
    return ids, (y[torch.randperm(n, generator=g)] if shuffle else y)


def _observe(*, shuffle: bool = False, eval_mode: bool = True, steps: int = 8) -> tuple[Observer, nn.Module]:
    torch.manual_seed(0)
    ids, y = _tokens(512, shuffle)
    model = KwargsClassifier()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    obs = Observer(max_steps=steps)
    rows = [{"input_ids": ids[i], "attention_mask": torch.ones(T), "labels": y[i]} for i in range(384)]
    loader = DataLoader(rows, batch_size=32)  # dict examples, collated into dict batches
    with pytest.raises(StepLimitReached), obs:
        for _ in range(3):
            model.train()
            for batch in loader:
                out = model(**batch, return_dict=True)  # the Trainer's call: keyword arguments only
                out["loss"].backward()
                opt.step()
                opt.zero_grad()
            if eval_mode:
                model.eval()
            with torch.no_grad():
                for i in range(384, 512, 64):
                    model(input_ids=ids[i : i + 64], labels=y[i : i + 64])
    return obs, model


def test_keyword_call_is_captured_as_dict_inputs_with_labels():
    obs, _ = _observe()
    rec = obs.observation()
    assert rec.loss is not None and rec.loss.kind == "model_output" and rec.loss.on_model_output
    raw, notes = capture.target_from(obs.captured, rec, "hf-style")
    assert raw is not None, notes
    t = Target.model_validate(raw)
    assert set(t.raw_inputs) == {"input_ids", "attention_mask", "labels"}
    assert torch.equal(t.targets, t.raw_inputs["labels"])  # the loss target is the labels argument
    out = t.call_model(t.model, t.raw_inputs)  # the plain flag return_dict=True is replayed
    assert torch.allclose(t.loss_fn(out, t.targets), out["loss"])
    x, y = t.train_data
    assert x.shape == (8 * 32, T) and not x.is_floating_point() and y.shape == (8 * 32,)  # input_ids, not the mask
    assert t.val_data[0].shape[1:] == (T,)  # evaluation pairs: inputs with their own labels


@pytest.mark.parametrize("shuffle, outcome", [(True, "labels_unpredictable"), (False, "labels_predictable")])
def test_data_audit_runs_on_the_observed_batches(shuffle: bool, outcome: str):
    obs, _ = _observe(shuffle=shuffle)
    t, info = scripted.from_capture(obs.captured, obs.observation(), "hf-style")
    assert "train_data" in info.provided and "loss_fn" in info.provided
    assert outcome in run("data_audit", t).outcomes
    assert run("init_loss", t).status == "passed"  # a model-level probe runs on the dict inputs


def test_observed_step_replays_the_keyword_call():
    obs, _ = _observe()
    t, _ = scripted.from_capture(obs.captured, obs.observation(), "hf-style")
    model = t.model
    opt = t.optimizer(model.parameters())
    before = [p.detach().clone() for p in model.parameters()]
    loss = t.train_step(model, t.batch, opt, t.loss_fn)
    assert float(loss) > 0 and any(not torch.equal(a, p) for a, p in zip(before, model.parameters(), strict=True))


@pytest.mark.parametrize("eval_mode, outcome", [(False, "eval_in_train_mode"), (True, "eval_mode_ok")])
def test_mode_audit_replays_the_observed_evaluation(eval_mode: bool, outcome: str):
    obs, _ = _observe(eval_mode=eval_mode)
    t, info = scripted.from_capture(obs.captured, obs.observation(), "hf-style")
    assert "eval_fn" in info.provided
    result = run("mode_audit", t)
    assert outcome in result.outcomes, result.summary
    assert (result.status == "failed") is (not eval_mode)


def test_no_eval_fn_without_an_observed_evaluation():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.2), nn.Linear(8, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    obs = Observer(max_steps=2)
    with pytest.raises(StepLimitReached), obs:
        for _ in range(4):
            opt.zero_grad()
            F.cross_entropy(model(torch.randn(8, 4)), torch.randint(0, 2, (8,))).backward()
            opt.step()
    raw, _ = capture.target_from(obs.captured, obs.observation(), "loop")
    assert raw is not None and "eval_fn" not in raw


def test_optimizer_hparams_follow_the_constructor():
    """A param group holds keys the constructor does not take (AdamW's decoupled_weight_decay)."""
    params = [nn.Parameter(torch.zeros(2))]
    opt = capture.build_optimizer(torch.optim.AdamW, {"lr": 0.1, "decoupled_weight_decay": True}, params)
    assert isinstance(opt, torch.optim.AdamW) and opt.defaults["lr"] == 0.1


def _sweep(losses: list[float]) -> Target:
    from debug_agent.schemas import StepRecord, TrainObservation

    steps = [StepRecord(index=k, kind="optimizer", loss=v) for k, v in enumerate(losses)]
    obs = TrainObservation(steps=steps, intervention="lr_sweep")
    return Target(model=nn.Linear(2, 2), batch=(torch.zeros(2, 2), torch.zeros(2)), observation=obs)


@pytest.mark.parametrize(
    "losses, outcome",
    [
        ([1.0, 1.0, 1.0, 1.0, 0.9, 0.5], "lr_in_band"),  # fell after the update at 2.5x: the rate is fine
        ([1.0, 1.0, 1.0, 1.0, 1.0, 0.9], "lr_below_band"),  # fell only after the update at 16x
        ([1.0, 1.0, 1.0, 2.0, 9.0, 9.0], "lr_above_band"),  # blew up after the update at 0.4x
    ],
)
def test_script_lr_range_credits_a_loss_to_the_update_before_it(losses: list[float], outcome: str):
    """Step k's loss is read before step k's update: a sweep over 6 steps (0.01x .. 100x) credits it to k-1."""
    assert run("script_lr_range", _sweep(losses)).outcomes == [outcome]


def _repeated(losses: list[float]) -> Target:
    from debug_agent.schemas import StepRecord, TrainObservation

    steps = [StepRecord(index=k, kind="optimizer", loss=v) for k, v in enumerate(losses)]
    obs = TrainObservation(steps=steps, intervention="repeat_first_batch")
    return Target(model=nn.Linear(2, 2), batch=(torch.zeros(2, 2), torch.zeros(2)), observation=obs)


@pytest.mark.parametrize(
    "losses, outcome, status",
    [
        ([2.3, 2.3, 2.3, 2.3, 2.3, 2.3], "batch_loss_flat", "failed"),  # nothing the steps do reaches the loss
        ([4.171, 4.169, 4.175, 4.162, 4.173, 4.162], "batch_loss_slow", "inconclusive"),  # dropout wobble, slow lr
        ([2.3, 1.9, 1.4, 1.0, 0.7, 0.5], "fits_batch", "passed"),
    ],
)
def test_script_overfit_calls_a_loss_flat_only_when_it_holds_still(losses: list[float], outcome: str, status: str):
    """Six steps of a small learning rate under dropout move the loss less than its wobble: no verdict."""
    r = run("script_overfit", _repeated(losses))
    assert (r.outcomes, r.status) == ([outcome], status), r.summary


class CountedLoss(KwargsClassifier):
    """The Trainer (transformers >= 4.46) also passes `num_items_in_batch`, a 0-d tensor, to forward."""

    def forward(self, input_ids, attention_mask=None, labels=None, return_dict=True, num_items_in_batch=None):
        out = super().forward(input_ids, attention_mask, None, return_dict)
        if labels is not None:
            out["loss"] = F.cross_entropy(out["logits"], labels, reduction="sum") / num_items_in_batch
        return out


def test_a_0d_tensor_argument_is_replayed_as_a_constant_not_an_input():
    torch.manual_seed(0)
    ids, y = _tokens(256, shuffle=False)
    model = CountedLoss()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    obs = Observer(max_steps=4)
    with pytest.raises(StepLimitReached), obs:
        for i in range(0, 256, 32):
            out = model(input_ids=ids[i : i + 32], labels=y[i : i + 32], num_items_in_batch=torch.tensor(32))
            out["loss"].backward()
            opt.step()
            opt.zero_grad()
    t, info = scripted.from_capture(obs.captured, obs.observation(), "hf-trainer")
    assert set(t.raw_inputs) == {"input_ids", "labels"} and "loss_fn" in info.provided
    assert run("init_loss", t).status == "passed"
