"""Build the probes' Target from what an Observer captured in a real run.

The model is the snapshot taken before the first step; the batch is the first training call's
inputs with the loss target of that step; the loss function is the loss module (a copy) or a
`functools.partial` of the functional loss with its keyword arguments; the optimizer is a factory
for the same class with the first param group's hyperparameters (a hand-written `p -= lr * grad`
update is read as SGD with that lr); the train_step mirrors the observed loop (it clears gradients
only when the run did); train_data / val_data are the
(input, target) pairs the run fed to the model and the loss. A piece that could not be captured is
left out with a note, and the probes that need it are then not applicable.

May import: torch, schemas, errors, the isolation room's own modules.
"""

from __future__ import annotations

import copy
import functools
from typing import Any

import torch

from debug_agent.isolation.observe import Captured
from debug_agent.schemas import TrainObservation


def build_optimizer(cls: type, hparams: dict[str, Any], params: Any) -> torch.optim.Optimizer:
    """The observed optimizer class with the observed hyperparameters, on new parameters."""
    return cls(params, **hparams)


def observed_step(clears_grads: bool, model: Any, batch: Any, opt: Any, loss_fn: Any) -> Any:
    """The training step as the run did it: forward, loss, backward, step, clearing gradients first
    only when the observed loop did (so step-level probes test the user's loop, not a textbook one)."""
    if clears_grads:
        opt.zero_grad(set_to_none=True)
    inputs, targets = batch
    loss = loss_fn(model(*inputs), targets)
    loss.backward()
    opt.step()
    return loss


def _clears(obs: TrainObservation) -> bool:
    known = [s.grads_cleared for s in obs.steps if s.grads_cleared is not None]
    return not known or 2 * sum(1 for k in known if k is False) < len(known)


def _stack(items: list[Any]) -> torch.Tensor | None:
    if not items or not all(isinstance(t, torch.Tensor) for t in items):
        return None
    if len({tuple(t.shape[1:]) for t in items}) != 1 or any(t.dim() == 0 for t in items):
        return None
    return torch.cat(items)


def _pairs(pairs: list[tuple[Any, Any]]) -> tuple[torch.Tensor, torch.Tensor] | None:
    xs = _stack([p[0] for p in pairs])
    ys = _stack([p[1] for p in pairs])
    if xs is None or ys is None or len(xs) != len(ys) or len(xs) < 2:
        return None
    return xs, ys


def _loss_fn(cap: Captured, notes: list[str]) -> Any:
    seen = cap.loss
    if seen is None:
        notes.append("no loss function was seen on the training path (a loss module or torch.nn.functional loss)")
        return None
    if not seen.on_model_output:
        notes.append(
            f"the loss {seen.name} is computed on a transformed model output, not the output itself: "
            "probes that need loss_fn(output, targets) do not run"
        )
        return None
    if seen.kind == "module":
        return copy.deepcopy(seen.fn)
    return functools.partial(seen.fn, **seen.kwargs)


def target_from(cap: Captured, obs: TrainObservation, name: str) -> tuple[dict[str, Any] | None, list[str]]:
    """The target dict (validated later like a make_target() result), or None with the reasons."""
    notes: list[str] = []
    if cap.model is None:
        return None, ["no model call was seen before the first step, so no model could be captured"]
    args = cap.args or ()
    if cap.kwargs:
        return None, [
            "the model is called with keyword arguments; the model-level probes need model(*inputs) and do not run"
        ]
    if not args or not all(isinstance(a, torch.Tensor) for a in args):
        return None, ["the model's inputs are not plain tensors (a dict or nested structure): model-level probes skip"]
    raw: dict[str, Any] = {"model": cap.model, "name": name, "observation": obs}
    target = cap.first_target if isinstance(cap.first_target, torch.Tensor) else None
    if target is None:
        notes.append("no loss target tensor was seen: probes that need targets use a zero placeholder")
        raw["batch"] = (args, torch.zeros(args[0].shape[0]))
    else:
        raw["batch"] = (args, target)
        raw["loss_fn"] = _loss_fn(cap, notes)
        if raw["loss_fn"] is not None:
            raw["train_step"] = functools.partial(observed_step, _clears(obs))
    if cap.optimizer_class is not None:
        raw["optimizer"] = functools.partial(build_optimizer, cap.optimizer_class, dict(cap.optimizer_hparams))
    train = _pairs(cap.train_pairs)
    if train is not None:
        raw["train_data"] = train
    val = _pairs(cap.eval_pairs)
    if val is not None and train is not None:
        raw["val_data"] = val
    return {k: v for k, v in raw.items() if v is not None}, notes
