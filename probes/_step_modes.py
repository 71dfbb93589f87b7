"""Modes and frozen norm layers in the user's training step, for step_audit.

Which dropout and batch-norm modules ran in eval mode during the step, whether that is a forgotten
`model.train()` or the "freeze batch norm" idiom (the step trains the model but keeps its norm layers in
eval), and whether norm layers meant to stay fixed still change: running statistics of a layer whose
weights are frozen, or weights of a layer whose statistics are frozen. Imports torch and schemas only.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from debug_agent.schemas import Finding, Target

MODE_SENSITIVE = (nn.modules.dropout._DropoutNd, nn.modules.batchnorm._BatchNorm)


def frozen_own(mod: nn.Module) -> bool:
    params = list(mod.parameters(recurse=False))
    return bool(params) and not any(p.requires_grad for p in params)


def frozen_norm_stats(model: nn.Module, eval_set: bool = False) -> dict[str, torch.Tensor]:
    """The running mean of each normalisation layer whose own parameters are all frozen (requires_grad=False);
    with `eval_set`, also of each one put in eval mode inside a model that trains (the `freeze_bn()` idiom:
    its statistics are to keep their pretrained values)."""
    out = {}
    for name, mod in model.named_modules():
        stats = getattr(mod, "running_mean", None)
        idiom = eval_set and model.training and not mod.training
        if isinstance(stats, torch.Tensor) and (frozen_own(mod) or idiom):
            out[name] = stats.detach().clone()
    return out


def frozen_stats_moved(model: nn.Module, before: dict[str, torch.Tensor]) -> str | None:
    """A frozen norm layer left in training mode still updates its running statistics at every forward:
    the 'frozen' part of the model computes something else afterwards although its weights stay equal."""
    modules = dict(model.named_modules())
    moved = [n for n, s in before.items() if not torch.equal(s, modules[n].running_mean)]
    if not moved:
        return None
    return (
        f"{len(moved)} normalisation layer(s) with frozen weights still updated their running statistics "
        f"during the step (left in training mode): {', '.join(moved[:6])}"
    )


def _affine_moved(model: nn.Module, names: list[str], before: dict[str, torch.Tensor]) -> list[str]:
    """Own parameters of the named modules that changed over the step."""
    out = []
    for n in names:
        for pname, p in dict(model.named_modules())[n].named_parameters(recurse=False):
            full = f"{n}.{pname}" if n else pname
            if full in before and not torch.equal(before[full], p.detach()):
                out.append(full)
    return out


def step_mode(
    model: nn.Module,
    ran: dict[str, bool],
    target: Target,
    before: dict[str, torch.Tensor],
    findings: list[Finding],
    meas: dict[str, Any],
) -> list[str]:
    """The mode outcome of the user's step: eval_mode_in_step, norm_eval_in_train (its weights fixed or not)
    or train_mode_in_step. `ran` maps each module that ran in forward to its training flag then."""
    sensitive = [n for n, m in model.named_modules() if isinstance(m, MODE_SENSITIVE) and n in ran]
    if not sensitive:
        return []
    modules = dict(model.named_modules())
    # A frozen norm layer (its own parameters all requires_grad=False) kept in eval mode is by design.
    off = [n for n in sensitive if not ran[n] and not frozen_own(modules[n])]
    meas["mode_sensitive_modules"] = len(sensitive)
    if off and target.train_step is None:
        return []  # our own textbook step ran: how the user's loop sets the mode is not visible here
    norms_only = all(isinstance(modules[n], nn.modules.batchnorm._BatchNorm) for n in off)
    if off and norms_only and ran.get("", False):
        # The model trains but its norm layers were put in eval: the "freeze batch norm" idiom, not a
        # forgotten model.train(). It fixes the running statistics only; weight and bias still train.
        moved = _affine_moved(model, off, before)
        if moved:
            findings.append(
                Finding(
                    text=f"the step trains the model but keeps {len(off)} norm layer(s) in eval mode "
                    f"({', '.join(off[:6])}): their running statistics stay fixed, yet their weight and bias "
                    f"still train ({', '.join(moved[:6])}); to freeze them set requires_grad=False as well"
                )
            )
            return ["norm_eval_weights_train"]
        return ["norm_eval_in_train"]
    if off:
        after = " after eval_fn" if target.eval_fn is not None else ""
        findings.append(
            Finding(
                text=f"the training step ran{after} with {len(off)} dropout/batch-norm module(s) in eval mode "
                f"({', '.join(off[:6])}); harmless only if your loop calls model.train() elsewhere "
                "before every training step"
            )
        )
        return ["eval_mode_in_step"]
    return ["train_mode_in_step"]
