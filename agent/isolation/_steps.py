"""The step half of the Observer: optimizer step hooks, hand-written updates recognised from parameter
changes, the step bound, and AMP GradScaler events. A mixin: `Observer` holds the state it uses.

May import: torch, schemas, the isolation room's helpers.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import torch

from debug_agent.isolation import _observed as h
from debug_agent.schemas.observation import NonFinite, StepRecord


class StepLimitReached(BaseException):  # noqa: N818 - a stop signal, not an error
    """Raised into the observed script when the step bound is reached (a BaseException, so
    `except Exception` in the user's code does not swallow it)."""


class StepHooks:
    """Optimizer pre/post hooks, manual-step detection, the bound and GradScaler wrappers."""

    def _grads_present(self) -> bool:
        """Any non-zero gradient in the tracked parameters (one fused norm, one device sync)."""
        grads = [p.grad.detach() for p in self._params.values() if p.grad is not None and not p.grad.is_sparse]
        if not grads:
            return False
        return bool(torch.stack([n.float() for n in torch._foreach_norm(grads)]).ne(0).any())

    def _param_copy(self) -> list[torch.Tensor]:
        return _copies(list(self._params.values()))

    def _remember_grads(self) -> None:
        """In a loop without optimizer, keep the gradients of the first few steps to read the update rule."""
        if self._manual_ref is None or self._opt_params or self.captured.optimizer_class is not None:
            return
        if len(self.obs.steps) < 3:
            self._grads_seen = [p.grad.detach().clone() if p.grad is not None else None for p in self._params.values()]

    def _read_manual_rule(self, params: list[torch.Tensor]) -> None:
        """A hand-written update that is `p -= lr * p.grad` (plain SGD): capture it as SGD(lr) for the probes."""
        grads = getattr(self, "_grads_seen", None)
        if grads is None or self._manual_ref is None or len(grads) != len(params):
            return
        pairs = [(p.detach() - r, g) for p, r, g in zip(params, self._manual_ref, grads, strict=True) if g is not None]
        if not pairs:
            return
        delta = torch.cat([d.reshape(-1).double() for d, _ in pairs])
        grad = torch.cat([g.reshape(-1).double() for _, g in pairs])
        gg = float(grad @ grad)
        lr = -float(delta @ grad) / gg if gg > 0 else 0.0
        fit = float((delta + lr * grad).norm() / delta.norm().clamp_min(1e-30))
        if lr > 0 and fit < 0.05:
            self.captured.optimizer_class = torch.optim.SGD
            self.captured.optimizer_hparams = {"lr": lr}
            self.obs.notes.append(f"the hand-written update reads as plain SGD with lr {lr:.3g}")
        self._grads_seen = None

    def _detect_manual_step(self, final: bool = False) -> None:
        """A hand-written update: parameters changed since the last backward without an optimizer step."""
        if self._manual_ref is None or self._opt_params or self._backwards_since_step == 0:
            return
        params = list(self._params.values())
        if len(params) != len(self._manual_ref):
            self._manual_ref = self._param_copy()
            return
        flags = _differ(params, self._manual_ref)
        changed = [i for i, moved in zip(self._params, flags, strict=True) if moved]
        if not changed:
            return
        self._changed.update(changed)
        if self.captured.optimizer_class is None:
            self._read_manual_rule(params)
        self._manual_ref = self._param_copy()
        self._add_step("manual", [], [], changed, len(params), where=self._last_backward_site)
        self._step_since_backward = True
        if not final:
            self._check_limit()

    # -- optimizer steps -------------------------------------------------------------------------

    def _adopt_optimizer(self, opt: torch.optim.Optimizer) -> None:
        for g in opt.param_groups:
            for p in g["params"]:
                self._opt_params.add(id(p))
                if id(p) not in self._params:
                    self._params[id(p)] = p
                    self._names[id(p)] = f"param{len(self._names)}"
        if self.captured.optimizer_class is None:
            opt = _unwrapped(opt)
            self.captured.optimizer_class = type(opt)
            g0 = opt.param_groups[0]
            self.captured.optimizer_hparams = {
                k: g0.get("initial_lr", g0[k]) if k == "lr" else g0[k] for k in opt.defaults if k in g0
            }
        self._manual_ref = None
        self._grads_seen = None  # kept only to read a hand-written update rule

    def _step_pre(self, opt: torch.optim.Optimizer, args: Any, kwargs: Any) -> None:
        self._adopt_optimizer(opt)
        iv = self.intervention
        if iv is not None and iv.kind == "lr_sweep" and iv.lr_factors:
            factor = iv.lr_factors[min(self.steps, len(iv.lr_factors) - 1)]
            self._saved_lr = [float(g["lr"]) for g in opt.param_groups]
            for g, lr in zip(opt.param_groups, self._saved_lr, strict=True):
                g["lr"] = lr * factor
        self._pre_lr = [float(g.get("lr", 0.0)) for g in opt.param_groups]
        self._pre_norms = _group_norms(opt)
        # Only parameters not yet seen changing are copied and compared: after the first step that is
        # the frozen or never-updated few, so tracking costs almost nothing on later steps.
        self._watched = [p for g in opt.param_groups for p in g["params"] if id(p) not in self._changed]
        self._before = _copies(self._watched) if self.track_changes else None
        return None

    def _step_post(self, opt: torch.optim.Optimizer, args: Any, kwargs: Any) -> None:
        if self._saved_lr is not None:
            for g, lr in zip(opt.param_groups, self._saved_lr, strict=True):
                g["lr"] = lr
            self._saved_lr = None
        params = self._watched
        changed: list[int] = []
        if self._before is not None and len(self._before) == len(params):
            changed = [id(p) for p, moved in zip(params, _differ(params, self._before), strict=True) if moved]
            self._changed.update(changed)
        self._before = None
        self._watched = []
        self._add_step("optimizer", self._pre_lr, self._pre_norms, changed, len(params), where=h.site())
        self._step_since_backward = True
        self._check_limit()
        return None

    def _add_step(
        self, kind: str, lr: list[float], norms: list[float | None], changed: list[int], total: int, where: Any
    ) -> None:
        model = next(iter(self._models.values()), None)
        self.obs.steps.append(
            StepRecord(
                index=self.steps,
                kind=kind,  # type: ignore[arg-type]
                loss=self._last_loss,
                backwards=self._backwards_since_step,
                lr=lr,
                grad_norms=[n if n is None or math.isfinite(n) else None for n in norms],
                grads_cleared=self._cleared,
                params_changed=len(changed),
                params_total=total,
                model_training=model.training if model is not None else None,
                where=where,
                backward_where=self._last_backward_site,
            )
        )
        if any(n is not None and not math.isfinite(n) for n in norms) and self.obs.first_nonfinite is None:
            self.obs.first_nonfinite = NonFinite(step=self.steps - 1, what="grad", where=self._last_backward_site)
        self._backwards_since_step = 0
        self._cleared = None

    def _check_limit(self) -> None:
        """At the step bound: first let the epoch end (evaluation runs), then stop at the next training work."""
        if self.max_steps is None or self.steps < self.max_steps:
            return
        if self.loaders.draining or not self.loaders.start_draining():
            raise StepLimitReached(f"{self.steps} step(s) observed")

    # -- AMP -------------------------------------------------------------------------------------

    def _wrap_scaler_scale(self, orig: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(orig)
        def scale(scaler: Any, outputs: Any) -> Any:
            out = orig(scaler, outputs)
            if isinstance(outputs, torch.Tensor) and isinstance(out, torch.Tensor) and outputs.numel() == 1:
                self._scaled = {id(out): float(outputs.detach().float())}
            return out

        return scale

    def _wrap_scaler_update(self, orig: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(orig)
        def update(scaler: Any, *args: Any, **kwargs: Any) -> Any:
            before = scaler.get_scale() if scaler.is_enabled() else None
            out = orig(scaler, *args, **kwargs)
            after = scaler.get_scale() if scaler.is_enabled() else None
            if before is not None and after is not None and after < before and len(self.obs.scaler) < 20:
                self.obs.scaler.append(
                    f"step {self.steps}: non-finite gradients, step skipped, scale {before:g} -> {after:g}"
                )
            return out

        return update


def _unwrapped(opt: torch.optim.Optimizer) -> torch.optim.Optimizer:
    """The optimizer inside a framework's wrapper (accelerate's AcceleratedOptimizer, Lightning's
    LightningOptimizer), whose constructor takes an optimizer, not parameters."""
    for _ in range(4):
        inner = getattr(opt, "optimizer", None) or getattr(opt, "_optimizer", None)
        if not isinstance(inner, torch.optim.Optimizer) or inner is opt:
            break
        opt = inner
    return opt


def _copies(params: list[torch.Tensor]) -> list[torch.Tensor]:
    """Detached copies of parameters (a fused out-of-place add where the tensors allow it)."""
    dense = [p.detach() for p in params]
    if dense and not any(p.is_sparse for p in dense):
        return list(torch._foreach_add(dense, 0))
    return [p.clone() for p in dense]


def _differ(params: list[torch.Tensor], before: list[torch.Tensor]) -> list[bool]:
    """Which parameters differ from their copies (NaN counts as a change), with one device sync."""
    if not params:
        return []
    diffs = torch._foreach_sub([p.detach() for p in params], before)
    norms = torch._foreach_norm(diffs)
    return torch.stack([n.float() for n in norms]).ne(0).tolist()


def _group_norms(opt: torch.optim.Optimizer) -> list[float | None]:
    """Gradient L2 norm per param group (None for a group without gradients), with one device sync."""
    per_group: list[torch.Tensor | None] = []
    for g in opt.param_groups:
        grads = [p.grad.detach() for p in g["params"] if p.grad is not None and not p.grad.is_sparse]
        norms = torch._foreach_norm(grads) if grads else []
        per_group.append(torch.linalg.vector_norm(torch.stack([n.float() for n in norms])) if grads else None)
    present = [t for t in per_group if t is not None]
    values = iter(torch.stack(present).tolist() if present else [])
    return [next(values) if t is not None else None for t in per_group]
