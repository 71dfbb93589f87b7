"""Passive observation of a real training run through global torch hooks (uses only torch).

`Observer` installs process-wide hooks — optimizer step pre/post hooks, module forward (pre-)hooks,
a wrapper around `Tensor.backward`/`torch.autograd.backward`, `DataLoader.__iter__`, the functional
losses of `torch.nn.functional`, `GradScaler.update` and the LR schedulers' `step` — and records what
the run does: loss, lr and gradient norms per step, whether gradients were cleared before each
backward, which parameters changed or never got a gradient, the training flag of mode-dependent
modules in training and in evaluation passes, the top-level model call, DataLoader batches, the first
non-finite value, the schedulers stepped and their pace (probes/_schedule.py). Steps are optimizer
steps, or hand-written updates recognised from parameter changes between backwards.

Stable interface (used by the CLI's script runner, the framework callbacks and `watch()`):

    obs = Observer(max_steps=6)          # StepLimitReached is raised into the script at the bound
    with obs:                            # install() ... remove()
        run_the_training()
    obs.observation() -> TrainObservation   # JSON-safe record
    obs.captured -> Captured                 # raw pieces to rebuild a Target (see capture.py)
    obs.watch(model, optimizer)              # optional: name the model/optimizer explicitly

May import: torch, schemas, probes._common, the isolation room's own helpers.
"""

from __future__ import annotations

import copy
import functools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import torch
from torch import nn
from torch.optim import optimizer as optim_mod
from torch.utils.data import DataLoader

from debug_agent.isolation import _observed as h
from debug_agent.isolation._loaders import LoaderHooks
from debug_agent.isolation._observed import FUNCTIONAL_LOSSES, SeenLoss
from debug_agent.isolation._steps import StepHooks, StepLimitReached
from debug_agent.probes._schedule import ScheduleWatch

__all__ = ["Captured", "Intervention", "Observer", "StepLimitReached"]
from debug_agent.schemas.observation import LossCall, ModePass, NonFinite, TrainObservation


@dataclass
class Intervention:
    """What a fresh run changes: repeat the training loader's first batch, or scale the lr per step."""

    kind: str  # "repeat_first_batch" | "lr_sweep"
    loader_key: str | None = None  # the DataLoader (file:line of its iteration) to repeat
    lr_factors: list[float] = field(default_factory=list)  # lr multiplier for step k (lr_sweep)


@dataclass
class Captured:
    """Raw objects a Target is rebuilt from (capture.py): copies, never the user's live objects."""

    model: nn.Module | None = None  # deepcopy of the top-level model before its first step
    args: tuple[Any, ...] | None = None  # first training call's positional arguments (copies)
    kwargs: dict[str, Any] | None = None
    loss: SeenLoss | None = None  # the loss whose result the first backward ran on
    first_target: Any = None
    optimizer_class: type | None = None
    optimizer_hparams: dict[str, Any] = field(default_factory=dict)
    train_pairs: list[tuple[Any, Any]] = field(default_factory=list)  # (model input, loss target) per step
    eval_pairs: list[tuple[Any, Any]] = field(default_factory=list)


class Observer(StepHooks):
    """Records a training run through global hooks; see the module docstring for the interface."""

    def __init__(
        self,
        *,
        max_steps: int | None = None,
        keep_pairs: int = 64,
        max_elems: int = 1_000_000,
        snapshot: bool = True,
        track_changes: bool = True,
        intervention: Intervention | None = None,
    ) -> None:
        self.max_steps = max_steps
        self.keep_pairs = keep_pairs
        self.max_elems = max_elems  # per kept copy (batch, argument structure)
        self.snapshot = snapshot
        self.track_changes = track_changes
        self.intervention = intervention
        self.captured = Captured()
        self.obs = TrainObservation()
        self.loaders = LoaderHooks(self)
        self.schedules = ScheduleWatch(lambda: self.steps, self.loaders.train_length)
        self._handles: list[Any] = []
        self._patches: list[tuple[Any, str, Any]] = []
        self._depth = 0
        self._in_loss = 0
        self._in_backward = False
        self._models: dict[int, nn.Module] = {}
        self._mode_mods: dict[int, list[tuple[str, nn.Module]]] = {}
        self._names: dict[int, str] = {}  # id(param) -> name
        self._params: dict[int, torch.Tensor] = {}
        self._got_grad: set[int] = set()
        self._changed: set[int] = set()
        self._opt_params: set[int] = set()
        self._passes: dict[tuple[Any, ...], ModePass] = {}
        self._last_output_id = 0
        self._last_input: Any = None
        self._last_eval_input: Any = None
        self._pending_loss: SeenLoss | None = None
        self._step_since_backward = False
        self._backwards_since_step = 0
        self._last_loss: float | None = None
        self._last_backward_site: Any = None
        self._cleared: bool | None = None
        self._manual_ref: list[torch.Tensor] | None = None
        self._before: list[torch.Tensor] | None = None
        self._watched: list[torch.Tensor] = []  # parameters compared across the current optimizer step
        self._saved_lr: list[float] | None = None
        self._scaled: dict[int, float] = {}
        self._started = time.monotonic()
        self._first_training_seen = False
        self._snapshotted: set[int] = set()
        self._pre_lr: list[float] = []
        self._last_pass: tuple[Any, ...] | None = None
        self._backprop: set[tuple[Any, ...]] = set()
        self._pre_norms: list[float | None] = []

    # -- public ----------------------------------------------------------------------------------

    @property
    def steps(self) -> int:
        """Training steps recognised so far (optimizer steps and hand-written updates)."""
        return len(self.obs.steps)

    def watch(self, model: nn.Module, optimizer: torch.optim.Optimizer | None = None) -> None:
        """Name the model (and optimizer) explicitly; the hooks find them on their own otherwise."""
        self._adopt(model)
        if optimizer is not None:
            self._adopt_optimizer(optimizer)

    def install(self) -> Observer:
        """Install every global hook (idempotent per instance). Remove with `remove()`."""
        if self._handles:
            return self
        mm = nn.modules.module
        self._handles += [
            mm.register_module_forward_pre_hook(self._forward_pre),
            mm.register_module_forward_hook(self._forward_post, with_kwargs=True, always_call=True),
            optim_mod.register_optimizer_step_pre_hook(self._step_pre),
            optim_mod.register_optimizer_step_post_hook(self._step_post),
        ]
        self._patch(torch.Tensor, "backward", self._wrap_backward(torch.Tensor.backward, tensor_first=True))
        self._patch(torch.autograd, "backward", self._wrap_backward(torch.autograd.backward, tensor_first=True))
        for name in FUNCTIONAL_LOSSES:
            self._patch(torch.nn.functional, name, self._wrap_loss(getattr(torch.nn.functional, name), name))
        self._patch(DataLoader, "__iter__", self.loaders.wrap_iter(DataLoader.__iter__))
        self._patch(torch.amp.GradScaler, "update", self._wrap_scaler_update(torch.amp.GradScaler.update))
        self._patch(torch.amp.GradScaler, "scale", self._wrap_scaler_scale(torch.amp.GradScaler.scale))
        self.schedules.install()
        self._started = time.monotonic()
        return self

    def remove(self) -> None:
        """Remove every hook and patch this observer installed."""
        for handle in self._handles:
            handle.remove()
        self._handles = []
        for owner, name, orig in reversed(self._patches):
            setattr(owner, name, orig)
        self._patches = []
        self.schedules.remove()

    def __enter__(self) -> Observer:
        return self.install()

    def __exit__(self, *exc: object) -> None:
        self.remove()

    def observation(self) -> TrainObservation:
        """The record so far (a copy), with the parameter summaries filled in."""
        self._detect_manual_step(final=True)
        obs = self.obs.model_copy(deep=True)
        obs.seconds = round(time.monotonic() - self._started, 3)
        obs.passes = [
            p.model_copy(update={"role": "train" if key in self._backprop else "eval"})
            for key, p in self._passes.items()
        ]
        obs.loaders = self.loaders.records()
        obs.schedulers = self.schedules.records()
        trainable = {i: p for i, p in self._params.items() if p.requires_grad}
        obs.params_frozen = [self._names[i] for i, p in self._params.items() if not p.requires_grad][:50]
        if self.steps:
            obs.params_never_grad = [self._names[i] for i in trainable if i not in self._got_grad][:50]
            obs.params_never_changed = (
                [self._names[i] for i in trainable if i in self._got_grad and i not in self._changed][:50]
                if self.track_changes
                else []
            )
        if self._opt_params:
            obs.params_not_in_optimizer = [self._names[i] for i in trainable if i not in self._opt_params][:50]
        return obs

    # -- model calls -----------------------------------------------------------------------------

    def _adopt(self, model: nn.Module) -> None:
        if id(model) in self._models:
            return
        prefix = f"{type(model).__name__}." if self._models else ""
        self._models[id(model)] = model
        self._mode_mods[id(model)] = h.mode_modules(model)
        for n, p in model.named_parameters():
            if id(p) not in self._params:
                self._params[id(p)] = p
                self._names[id(p)] = prefix + n
        if self.obs.model_class is None:
            self.obs.model_class = type(model).__name__

    def _forward_pre(self, module: nn.Module, args: Any) -> None:
        if isinstance(module, nn.modules.loss._Loss):
            self._in_loss += 1
        elif self._depth == 0 and self._in_loss == 0:
            self._top_call(module, args)
        self._depth += 1
        return None

    def _top_call(self, module: nn.Module, args: Any) -> None:
        train = torch.is_grad_enabled() and not torch.is_inference_mode_enabled()
        if not any(True for _ in module.parameters()):
            return
        self._adopt(module)
        if train and self.snapshot and not self.obs.steps and id(module) not in self._snapshotted:
            self._snapshotted.add(id(module))
            if self.captured.model is None or id(module) == self._main_model_id():
                self.captured.model = copy.deepcopy(h.unwrapped(module))
        mods = self._mode_mods[id(module)]
        on = tuple(n for n, m in mods if m.training)
        where = h.site()
        key = (train, id(module), module.training, on, where.ref if where else None)
        self._last_pass = key
        rec = self._passes.get(key)
        if rec is not None:
            rec.calls += 1
        elif len(self._passes) < 64:
            self._passes[key] = ModePass(
                role="train" if train else "eval",
                grad_enabled=train,
                model_class=type(module).__name__,
                model_training=module.training,
                modes_train=list(on)[:20],
                modes_eval=[n for n, m in mods if not m.training][:20],
                where=where,
            )

    def _main_model_id(self) -> int:
        return next(iter(self._models), 0)

    def _forward_post(self, module: nn.Module, args: Any, kwargs: dict[str, Any], output: Any) -> None:
        self._depth = max(self._depth - 1, 0)
        if isinstance(module, nn.modules.loss._Loss):
            self._in_loss = max(self._in_loss - 1, 0)
            if output is not None and len(args) >= 2:
                self._record_loss(type(module).__name__, "module", module, args, kwargs, output)
            return None
        if self._depth or self._in_loss or id(module) not in self._models or output is None:
            return None
        out = h.first_tensor(output)
        self._last_output_id = id(out) if out is not None else 0
        train = torch.is_grad_enabled() and not torch.is_inference_mode_enabled()
        inputs = h.call_inputs(args, kwargs)
        self._loss_in_forward(inputs, kwargs, output, train)
        if train:
            self._last_input = inputs
            if self.captured.args is None and not self.obs.steps:
                self.captured.args = h.copy_small(tuple(args), self.max_elems)
                self.captured.kwargs = h.copy_small(dict(kwargs), self.max_elems)
                self.obs.model_call = {"args": h.describe(tuple(args)), "kwargs": h.describe(dict(kwargs))}
        else:
            self._last_eval_input = inputs
        return None

    # -- losses ----------------------------------------------------------------------------------

    def _loss_in_forward(self, inputs: Any, kwargs: dict[str, Any], output: Any, train: bool) -> None:
        """A model given `labels=` that returns its own `.loss` (Hugging Face style): that loss, with the
        labels as its target, is the training loss (it replaces a loss module seen inside the forward);
        in an evaluation pass, (inputs, labels) is an evaluation pair."""
        labels, loss = kwargs.get("labels"), h.output_loss(output)
        if not isinstance(labels, torch.Tensor) or loss is None:
            return
        if train:
            self._pending_loss = SeenLoss("output.loss", "model_output", None, {}, labels, id(loss), True, h.site())
        elif len(self.captured.eval_pairs) < self.keep_pairs:
            pair = h.copy_small((inputs, labels), self.max_elems)
            if pair is not None:
                self.captured.eval_pairs.append(pair)

    def _wrap_loss(self, orig: Callable[..., Any], name: str) -> Callable[..., Any]:
        @functools.wraps(orig)
        def loss(*args: Any, **kwargs: Any) -> Any:
            out = orig(*args, **kwargs)
            if self._in_loss == 0 and len(args) >= 2:
                self._record_loss(name, "functional", orig, args, kwargs, out)
            return out

        return loss

    def _record_loss(self, name: str, kind: str, fn: Any, args: Any, kwargs: dict[str, Any], out: Any) -> None:
        target = args[1]
        seen = SeenLoss(
            name=name,
            kind=kind,
            fn=fn,
            kwargs=h.json_kwargs(kwargs),
            target=target,
            out_id=id(out),
            on_model_output=id(args[0]) == self._last_output_id,
            site=h.site(),
        )
        if torch.is_grad_enabled():
            self._pending_loss = seen
        elif self._depth == 0 and self._last_eval_input is not None and len(self.captured.eval_pairs) < self.keep_pairs:
            pair = h.copy_small((self._last_eval_input, target), self.max_elems)
            if pair is not None:
                self.captured.eval_pairs.append(pair)

    # -- backward --------------------------------------------------------------------------------

    def _wrap_backward(self, orig: Callable[..., Any], tensor_first: bool) -> Callable[..., Any]:
        @functools.wraps(orig)
        def backward(*args: Any, **kwargs: Any) -> Any:
            if self._in_backward or not args:
                return orig(*args, **kwargs)
            first = args[0]
            loss = first[0] if isinstance(first, (tuple, list)) and first else first
            self._before_backward(loss if isinstance(loss, torch.Tensor) else None)
            self._in_backward = True
            try:
                return orig(*args, **kwargs)
            finally:
                self._in_backward = False
                self._after_backward()

        return backward

    def _before_backward(self, loss: torch.Tensor | None) -> None:
        if self.loaders.draining and self.steps and self._backwards_since_step == 0:
            raise StepLimitReached(f"{self.steps} step(s) observed; training resumed after the evaluation")
        self._detect_manual_step()
        if self._step_since_backward:
            self._cleared = not self._grads_present()
        self._step_since_backward = False
        self._backwards_since_step += 1
        if self._last_pass is not None:
            self._backprop.add(self._last_pass)
        self._last_backward_site = h.site()
        if loss is not None:
            value = float(loss.detach().float().mean()) if loss.numel() else float("nan")
            if id(loss) in self._scaled:
                value = self._scaled.pop(id(loss))
            self._last_loss = value
            if not math.isfinite(value) and self.obs.first_nonfinite is None:
                self.obs.first_nonfinite = NonFinite(step=self.steps, what="loss", where=self._last_backward_site)
        seen = self._pending_loss
        if seen is not None:
            if self.obs.loss is None:
                self.obs.loss = LossCall(
                    name=seen.name,
                    kind=seen.kind,
                    kwargs=seen.kwargs,
                    on_model_output=seen.on_model_output,
                    where=seen.site,
                )
                self.captured.loss = seen
                self.captured.first_target = h.copy_small(seen.target, self.max_elems)
            if self._last_input is not None and len(self.captured.train_pairs) < self.keep_pairs:
                pair = h.copy_small((self._last_input, seen.target), self.max_elems)
                if pair is not None:
                    self.captured.train_pairs.append(pair)
        self._pending_loss = None
        self.loaders.backward_seen()
        if not self._first_training_seen:
            self._first_training_seen = True
            if self.track_changes and not self._opt_params:
                self._manual_ref = self._param_copy()

    def _after_backward(self) -> None:
        self._got_grad.update(i for i, p in self._params.items() if p.grad is not None)
        self._remember_grads()

    # -- patching --------------------------------------------------------------------------------

    def _patch(self, owner: Any, name: str, new: Any) -> None:
        self._patches.append((owner, name, getattr(owner, name)))
        setattr(owner, name, new)
