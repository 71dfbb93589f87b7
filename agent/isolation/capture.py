"""Build the probes' Target from what an Observer captured in a real run.

The model is the snapshot taken before the first step; the batch is the first training call's
inputs (a model called with keyword arguments only, `model(input_ids=..., labels=...)` as the Hugging
Face Trainer does, gets a dict called as `model(**inputs)`) with the loss target of that step (the
`labels` argument when the model computed its loss in forward); the loss function is the loss module
(a copy), a `functools.partial` of the functional loss with its keyword arguments, or `output.loss`
for a loss computed inside forward; the optimizer is a factory for the same class with the first
param group's hyperparameters (a hand-written `p -= lr * grad` update is read as SGD with that lr);
the train_step mirrors the observed loop (it clears gradients only when the run did); the eval_fn
replays an observed evaluation pass (no_grad, each dropout/batch-norm module in the mode the run
evaluated in) so mode_audit tests it; train_data / val_data are the (input, target) pairs the run
fed to the model and the loss (for keyword inputs, the main data tensor such as input_ids). A piece
that could not be captured is left out with a note, and the probes that need it are then not applicable.

May import: torch, schemas, errors, the isolation room's own modules.
"""

from __future__ import annotations

import copy
import functools
import inspect
from typing import Any

import torch

from debug_agent.isolation._observed import mode_modules
from debug_agent.isolation.observe import Captured
from debug_agent.schemas import TrainObservation


def build_optimizer(cls: type, hparams: dict[str, Any], params: Any) -> torch.optim.Optimizer:
    """The observed optimizer class with the observed hyperparameters, on new parameters (only those its
    constructor takes: a param group also holds derived keys, e.g. AdamW's `decoupled_weight_decay`)."""
    try:
        accepted = inspect.signature(cls.__init__).parameters
    except (TypeError, ValueError):  # no introspectable signature: pass everything
        return cls(params, **hparams)
    if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in accepted.values()):
        hparams = {k: v for k, v in hparams.items() if k in accepted}
    return cls(params, **hparams)


def call_as_seen(model: Any, inputs: Any) -> Any:
    """The model called the way the run called it: model(**inputs) for keyword inputs, else model(*inputs)."""
    return model(**inputs) if isinstance(inputs, dict) else model(*inputs)


def observed_step(clears_grads: bool, training: bool, call: Any, model: Any, batch: Any, opt: Any, loss_fn: Any) -> Any:
    """The training step as the run did it: in the mode the run trained in, forward, loss, backward, step,
    clearing gradients first only when the observed loop did (so step-level probes test the user's loop,
    not a textbook one; a loop that trained in eval mode is train_observation's finding, from the run)."""
    model.train(training)
    if clears_grads:
        opt.zero_grad(set_to_none=True)
    inputs, targets = batch
    loss = loss_fn(call(model, inputs), targets)
    loss.backward()
    opt.step()
    return loss


def output_loss(output: Any, targets: Any) -> Any:
    """The loss the model computed in its forward from the `labels` in its inputs (`targets` are those
    labels, already inside the inputs): read from `output.loss` / `output["loss"]`."""
    loss = output.get("loss") if isinstance(output, dict) else getattr(output, "loss", None)
    if loss is None:
        raise ValueError("the model returned no .loss for these inputs (labels missing from the inputs?)")
    return loss


def call_with(extras: dict[str, Any], model: Any, inputs: Any) -> Any:
    """model(**inputs, **extras): the observed call's plain keyword arguments (flags such as return_dict)."""
    return model(**inputs, **extras)


def observed_eval(model_training: bool, modes_train: tuple[str, ...], call: Any, model: Any, batch: Any) -> Any:
    """The evaluation pass as the run did it: the model and each dropout/batch-norm module in the mode the
    run left them in (a run that never called `model.eval()` evaluates in training mode), under no_grad."""
    model.train(model_training)
    on = set(modes_train)
    for name, module in mode_modules(model):
        module.train(name in on)
    with torch.no_grad():
        return call(model, batch[0])


def _eval_fn(obs: TrainObservation, call: Any) -> Any:
    """A replay of the observed evaluation pass of the captured model (the one with most modules left in
    training mode when several differ), or None when the run evaluated nothing."""
    passes = [p for p in obs.passes if p.role == "eval" and p.model_class == obs.model_class]
    if not passes:
        return None
    worst = max(passes, key=lambda p: (len(p.modes_train), p.model_training))
    return functools.partial(observed_eval, worst.model_training, tuple(worst.modes_train), call)


def _trains(obs: TrainObservation) -> bool:
    """The mode the run trained in: training unless most observed steps ran the model in eval mode."""
    known = [s.model_training for s in obs.steps if s.model_training is not None]
    return not known or 2 * sum(1 for k in known if not k) < len(known)


def _clears(obs: TrainObservation) -> bool:
    known = [s.grads_cleared for s in obs.steps if s.grads_cleared is not None]
    return not known or 2 * sum(1 for k in known if k is False) < len(known)


# Keys of a model's keyword inputs that describe the data less than the main input does.
_AUX_KEYS = ("labels", "mask", "token_type", "position", "head_mask")


def _main(x: Any) -> Any:
    """The data tensor of a keyword-argument input (input_ids, pixel_values, ...), for the data audit."""
    if not isinstance(x, dict):
        return x
    keys = [k for k, v in x.items() if isinstance(v, torch.Tensor) and not any(a in str(k) for a in _AUX_KEYS)]
    return x[keys[0]] if keys else None


def _stack(items: list[Any]) -> torch.Tensor | None:
    if not items or not all(isinstance(t, torch.Tensor) for t in items):
        return None
    if len({tuple(t.shape[1:]) for t in items}) != 1 or any(t.dim() == 0 for t in items):
        return None
    return torch.cat(items)


def _pairs(pairs: list[tuple[Any, Any]]) -> tuple[torch.Tensor, torch.Tensor] | None:
    xs = _stack([_main(p[0]) for p in pairs])
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
    if seen.kind == "model_output":
        return output_loss
    if seen.kind == "module":
        return copy.deepcopy(seen.fn)
    return functools.partial(seen.fn, **seen.kwargs)


def target_from(cap: Captured, obs: TrainObservation, name: str) -> tuple[dict[str, Any] | None, list[str]]:
    """The target dict (validated later like a make_target() result), or None with the reasons."""
    notes: list[str] = []
    if cap.model is None:
        return None, ["no model call was seen before the first step, so no model could be captured"]
    args: Any = cap.args or ()
    raw: dict[str, Any] = {"model": cap.model, "name": name, "observation": obs}
    if cap.kwargs and args:
        return None, [
            "the model is called with positional and keyword arguments together; the model-level probes need "
            "model(*inputs) or model(**inputs) and do not run"
        ]
    if cap.kwargs:
        # A 0-d tensor (the Trainer's `num_items_in_batch`) is a constant of the call, not a batch of inputs.
        args = {k: v for k, v in cap.kwargs.items() if isinstance(v, torch.Tensor) and v.dim() > 0}
        extras = {k: v for k, v in cap.kwargs.items() if k not in args and v is not None}
        if extras:
            raw["call_model"] = functools.partial(call_with, extras)
    if not args or not all(isinstance(a, torch.Tensor) for a in (args.values() if isinstance(args, dict) else args)):
        return None, ["the model's inputs are not plain tensors (a nested structure): model-level probes skip"]
    target = cap.first_target if isinstance(cap.first_target, torch.Tensor) else None
    if target is None:
        notes.append("no loss target tensor was seen: probes that need targets use a zero placeholder")
        first = next(iter(args.values())) if isinstance(args, dict) else args[0]
        raw["batch"] = (args, torch.zeros(first.shape[0]))
    else:
        raw["batch"] = (args, target)
        raw["loss_fn"] = _loss_fn(cap, notes)
        if raw["loss_fn"] is not None:
            call = raw.get("call_model") or call_as_seen
            raw["train_step"] = functools.partial(observed_step, _clears(obs), _trains(obs), call)
    raw["eval_fn"] = _eval_fn(obs, raw.get("call_model") or call_as_seen)
    if cap.optimizer_class is not None:
        raw["optimizer"] = functools.partial(build_optimizer, cap.optimizer_class, dict(cap.optimizer_hparams))
    train = _pairs(cap.train_pairs)
    if train is not None:
        raw["train_data"] = train
    val = _pairs(cap.eval_pairs)
    if val is not None and train is not None:
        raw["val_data"] = val
    return {k: v for k, v in raw.items() if v is not None}, notes
