"""Random draws made while user code runs: which ops drew, where, and whether they could be a dropout mask.

Shared by eval_randomness (random eval forward: dropout left on, or sampling by design?) and
overfit_one_batch (a sampled objective has a loss floor above zero).

May import: torch and the probe helpers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from torch.overrides import TorchFunctionMode

from ._common import user_frame

DROPOUTS = frozenset({"dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout"})
SAMPLERS = frozenset(
    """rand randn randint rand_like randn_like randint_like bernoulli bernoulli_ multinomial normal normal_
    uniform_ exponential_ randperm""".split()
)

# Gaussian noise, integer draws and categorical sampling in forward are how generative models and training
# objectives sample (a VAE's reparameterised latent, a diffusion step's noise and timestep, a sampled token):
# random in eval mode by design. Dropout masks come from bernoulli or uniform draws, never from these.
SAMPLING = frozenset(
    {"randn", "randn_like", "normal", "normal_", "randint", "randint_like", "multinomial", "randperm", "exponential_"}
)


@dataclass
class RandomOps(TorchFunctionMode):
    """Record the random draws a forward makes, each with the user's source line."""

    calls: list[tuple[str, tuple[str, int, str] | None]] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__()

    def __torch_function__(self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        name = getattr(func, "__name__", "")
        what = None
        if name in DROPOUTS:
            p = kwargs.get("p", args[1] if len(args) > 1 else 0.5)
            if kwargs.get("training", args[2] if len(args) > 2 else True) and float(p) > 0:
                what = f"{name}(p={float(p):g}, training=True)"
        elif name == "scaled_dot_product_attention":
            p = kwargs.get("dropout_p", args[4] if len(args) > 4 else 0.0)
            if float(p) > 0:
                what = f"scaled_dot_product_attention(dropout_p={float(p):g})"
        elif name in SAMPLERS:
            what = name
        if what is not None:
            self.calls.append((what, user_frame()))
        return func(*args, **kwargs)
