"""lr_schedule: a schedule written in epochs stepped per batch, next to schedules stepped at their pace.

The target form runs the user's train_step on a copy; the script form reads what the Observer recorded
while a real loop ran. The projection runs on a copy: the user's scheduler and optimizer never move.
"""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest
import torch
from torch import nn
from torch.optim import lr_scheduler as lrs

from debug_agent.engine import catalog, planner
from debug_agent.errors import RegistrationError
from debug_agent.isolation import probe_registry
from debug_agent.isolation.observe import Observer
from debug_agent.probes._schedule import ScheduleWatch
from debug_agent.probes.registry import probe
from debug_agent.schemas import Report, Target, TargetInfo

from .conftest import report_of
from .test_probes_by_design import run
from .test_script_ask import _ask

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "scheduler_per_batch" / "target.py"
EPOCHS, ROWS, BATCH = 30, 2048, 32  # 64 batches per epoch


def _stepping(make_schedule):
    """A train_step that builds its scheduler on the optimizer it is given and steps it after every batch."""

    def step(model: nn.Module, batch: tuple, optimizer: torch.optim.Optimizer, loss_fn) -> torch.Tensor:
        if make_schedule is not None and not hasattr(optimizer, "schedule"):
            optimizer.schedule = make_schedule(optimizer)
        x, y = batch
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        if make_schedule is not None:
            optimizer.schedule.step()
        return loss.detach()

    return step


def _target(make_schedule, with_data: bool = True) -> Target:
    torch.manual_seed(0)
    x = torch.randn(ROWS, 6)
    y = x[:, 0] + 0.1 * torch.randn(ROWS)
    return Target(
        model=nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1)),
        batch=(x[:BATCH], y[:BATCH]),
        loss_fn=lambda out, y: nn.functional.mse_loss(out.squeeze(1), y),  # (B, 1) -> (B,) against (B,)
        train_step=_stepping(make_schedule),
        optimizer=lambda p: torch.optim.SGD(p, lr=0.1),
        train_data=(x, y) if with_data else None,
    )


EPOCH_SCHEDULES = {
    "step_in_epochs": lambda o: lrs.StepLR(o, step_size=EPOCHS // 3, gamma=0.1),
    "cosine_in_epochs": lambda o: lrs.CosineAnnealingLR(o, T_max=EPOCHS),
    "exponential_per_epoch_rate": lambda o: lrs.ExponentialLR(o, gamma=0.9),
    # 0.9 every 10 epochs: per batch it keeps 73% over half an epoch, and 3% after five epochs.
    "gentle_step_in_epochs": lambda o: lrs.StepLR(o, step_size=10, gamma=0.9),
}
BATCH_SCHEDULES = {
    "linear_decay_in_batches": lambda o: lrs.LambdaLR(o, lambda s: 1 - s / (EPOCHS * ROWS // BATCH)),
    "warmup_then_cosine_in_batches": lambda o: lrs.OneCycleLR(o, max_lr=0.1, total_steps=EPOCHS * ROWS // BATCH),
    "cyclic": lambda o: lrs.CyclicLR(o, base_lr=0.001, max_lr=0.1, step_size_up=8),
    "cosine_over_one_epoch": lambda o: lrs.CosineAnnealingLR(o, T_max=ROWS // BATCH),
    # Sized in batches: the first drop comes after three epochs; a slow exponential keeps 73% after five.
    "step_every_three_epochs_in_batches": lambda o: lrs.StepLR(o, step_size=3 * ROWS // BATCH, gamma=0.1),
    "slow_exponential_in_batches": lambda o: lrs.ExponentialLR(o, gamma=0.999),
    # 0.8% per call falls to 8% after five epochs, but no single call cuts 1%: a decay sized in steps.
    "per_step_exponential_in_batches": lambda o: lrs.ExponentialLR(o, gamma=0.992),
}


@pytest.mark.parametrize("name", sorted(EPOCH_SCHEDULES))
def test_schedule_in_epochs_stepped_per_batch_is_found(name):
    result = run("lr_schedule", _target(EPOCH_SCHEDULES[name]))
    assert result.status == "failed" and result.outcomes == ["schedule_ends_early"], result.summary
    assert result.measurements["epoch_batches"] == ROWS // BATCH
    assert result.findings[0].code == "optimizer.schedule.step()"


@pytest.mark.parametrize("name", sorted(BATCH_SCHEDULES))
def test_schedule_in_batches_stepped_per_batch_passes(name):
    result = run("lr_schedule", _target(BATCH_SCHEDULES[name]))
    assert result.status == "passed" and result.outcomes == ["schedule_spans_epoch"], result.summary


def test_library_schedule_sized_in_steps_passes_even_when_short():
    """A library's schedule counts optimizer steps by contract: one sized to 20 steps is a short run, not a misstep."""
    transformers = pytest.importorskip("transformers")
    short = _target(lambda o: transformers.get_linear_schedule_with_warmup(o, 2, num_training_steps=20))
    assert run("lr_schedule", short).outcomes == ["schedule_spans_epoch"]


def test_no_scheduler_and_unknown_epoch_give_no_evidence():
    assert run("lr_schedule", _target(None)).status == "not_applicable"
    unknown = run("lr_schedule", _target(EPOCH_SCHEDULES["step_in_epochs"], with_data=False))
    assert unknown.status == "inconclusive" and unknown.outcomes == []


def test_projection_never_moves_the_users_scheduler():
    model = nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = [0]
    opt.register_step_post_hook(lambda *_: steps.__setitem__(0, steps[0] + 1))
    with ScheduleWatch(lambda: steps[0], lambda: 64) as watch:
        sched = lrs.StepLR(opt, step_size=5, gamma=0.1)
        for _ in range(3):
            model(torch.randn(4, 3)).sum().backward()
            opt.step()
            sched.step()
    assert opt.param_groups[0]["lr"] == pytest.approx(0.1) and sched.last_epoch == 3
    (rec,) = watch.records()
    assert rec.calls_at == [1, 2, 3] and rec.per_step
    assert rec.projected_steps == 32 and rec.projected_min_ratio == pytest.approx(1e-6)
    assert lrs.StepLR.step is not watch.wrap  # removed on exit: the class has its own step back
    assert "step" in vars(lrs.StepLR) or lrs.StepLR.step is lrs.LRScheduler.step


def test_bundled_example_is_found():
    target = Target.model_validate(runpy.run_path(str(EXAMPLE))["make_target"]())
    result = run("lr_schedule", target)
    assert result.outcomes == ["schedule_ends_early"], result.summary


def _observed(bug: str):
    path = Path(__file__).resolve().parent / "scripts" / "scheduled_loop.py"
    obs = Observer(max_steps=6)
    with obs:
        try:
            runpy.run_path(str(path), run_name="__main__")
        except BaseException:  # noqa: BLE001 - StepLimitReached or the loader drained at the bound
            pass
    return obs.observation()


@pytest.mark.parametrize(
    ("bug", "outcome"),
    [("per_batch", "schedule_ends_early"), ("none", "schedule_per_epoch"), ("onecycle", "schedule_spans_epoch")],
)
def test_observed_script(bug, outcome, monkeypatch):
    monkeypatch.setattr("sys.argv", ["scheduled_loop.py", "--bug", bug])
    rec = _observed(bug)
    assert rec.schedulers and rec.schedulers[0].epoch_batches == 64
    target = Target(model=nn.Linear(8, 1), batch=(torch.randn(2, 8), torch.randn(2)), observation=rec)
    assert run("lr_schedule", target).outcomes == [outcome]


def test_script_ask_names_the_scheduler_line(run_cli, tmp_path):
    out = _ask(run_cli, tmp_path, "scheduled_loop.py", "--bug", "per_batch")
    report = Report.model_validate(report_of(out))
    assert report.cause_id == "optim.scheduler_misstep", report.evidence
    cited = [o for o in report.observations if o.source.startswith("script:scheduled_loop.py:")]
    line = int(next(o for o in cited if "StepLR" in o.text).source.rsplit(":", 1)[1])
    assert (tmp_path / "scheduled_loop.py").read_text().splitlines()[line - 1].strip() == "sched.step()"


def test_an_observed_run_prices_the_probe_as_a_record_read():
    """On `ask -- python train.py` the probe reads the scheduler calls already recorded, so a tight budget
    still runs it; on a train_step target it costs its six steps on a copy."""
    spec = probe_registry()["lr_schedule"]
    assert spec.info(["model", "observation"]).cost <= 0.1
    assert spec.info(["model", "batch", "loss_fn", "train_step"]).cost == 7.0
    script = TargetInfo(
        model_class="Net", n_params=1, n_trainable=1, provided=["model", "observation"],
        input_shapes=[], input_dtypes=[], batch_size=1,
    )  # fmt: skip
    cred = {"optim.scheduler_misstep": 0.3, "optim.lr_too_high": 0.3, "none": 0.4}
    infos = [spec.info(script.provided)]
    reqs, skipped = planner.plan(catalog.load(), cred, infos, script, budget_units=1.0)
    assert [r.name for r in reqs] == ["lr_schedule"] and not skipped


def test_registration_rejects_a_non_positive_observed_cost():
    with pytest.raises(RegistrationError, match="observed_cost"):

        @probe(outcomes=("ok",), observed_cost=0.0)
        def free_probe(target, ctx, options):
            """Never registered."""
