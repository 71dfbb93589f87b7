"""An op recorder: runs user code under a TorchFunctionMode and notes shape hazards with source lines.

It sees every torch function and Tensor method the user's forward, loss and metric call, including
operators (`a - b` arrives as `Tensor.__sub__`). Inside the handler the mode is switched off, so the
ops a loss function runs internally are not double counted.
"""

from __future__ import annotations

import warnings
import weakref
from dataclasses import dataclass, field
from typing import Any

import torch
from torch.overrides import TorchFunctionMode

from ._common import called_from_library, storage_key, user_frame
from ._pooling import Contraction, WeightWatch

# Elementwise binary ops whose output shape is the broadcast of both operands.
ELEMENTWISE = frozenset(
    """add sub mul div true_divide floor_divide pow rsub remainder fmod atan2 maximum minimum
    eq ne lt le gt ge logical_and logical_or logical_xor hypot xlogy
    __add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ __pow__ __rpow__
    __floordiv__ __mod__ __eq__ __ne__ __lt__ __le__ __gt__ __ge__ __and__ __or__
    add_ sub_ mul_ div_ pow_ eq_ ne_ lt_ le_ gt_ ge_ logical_and_ logical_or_ maximum_ minimum_
    __iadd__ __isub__ __imul__ __itruediv__ __iand__ __ior__""".split()
)

# Stages where an outer-product broadcast ((N,1) against (1,N)) is almost never meant: a metric
# compares each prediction with its own label. In forward and in losses (pairwise similarity,
# contrastive masks) it is a common, deliberate pattern.
PAIRWISE_SUSPECT_STAGES = frozenset({"metric_fn"})

# Losses that compare input and target elementwise and broadcast (with at most a warning) on mismatch.
ELEMENTWISE_LOSSES = frozenset(
    """mse_loss l1_loss smooth_l1_loss huber_loss binary_cross_entropy binary_cross_entropy_with_logits
    poisson_nll_loss soft_margin_loss kl_div""".split()
)

NORMALISERS = frozenset({"softmax", "log_softmax", "_softmax", "_log_softmax", "normalize", "softmin"})

# Reductions that, inside a forward pass, mix examples when taken over the batch axis.
REDUCTIONS = frozenset(
    {"mean", "sum", "std", "var", "amax", "amin", "logsumexp", "cumsum", "norm", "std_mean", "var_mean"}
)


# Products that compare rows with rows: a @ b.T of two batch-indexed tensors is a (B, B) similarity matrix,
# the core of contrastive losses and CLIP-style heads (coupling by design, never a layout bug).
PAIRWISE_PRODUCTS = frozenset({"matmul", "mm", "bmm", "einsum", "cdist", "__matmul__", "__rmatmul__"})


@dataclass
class ShapeEvent:
    kind: str  # broadcast | loss_shape | bare_squeeze | norm_over_batch | norm_over_singleton | norm_off_features | ...
    op: str
    shapes: list[list[int]]
    out_shape: list[int] | None
    where: tuple[str, int, str] | None
    detail: str = ""
    stage: str = ""
    library: bool = False  # called by library code (a third-party package), not by the user's


def _dim_arg(args: tuple[Any, ...], kwargs: dict[str, Any], pos: int) -> Any:
    if "dim" in kwargs:
        return kwargs["dim"]
    return args[pos] if len(args) > pos else None


@dataclass
class OpRecorder(TorchFunctionMode):
    """Record shape hazards. `batch_size` lets it tell the batch axis from the others."""

    batch_size: int
    stage: str = "forward"  # which part of the user's code is running; events carry it
    batch_axis: int = 0  # where the batch sits inside the model: the inputs' declared axis (1 when sequence-first)
    reductions: bool = False  # also note reductions over the batch axis and row-by-row products (not for audits)
    events: list[ShapeEvent] = field(default_factory=list)
    n_ops: int = 0
    # Outputs of `linear` (features on the last axis), by id; weakly held, so a freed one drops out (and a new
    # tensor that reuses its id is never mistaken for it) and a large model's activations are not kept alive.
    linear_outs: weakref.WeakValueDictionary[int, torch.Tensor] = field(default_factory=weakref.WeakValueDictionary)
    # Storage of the model's outputs and of the targets, marked before the loss runs: a same-rank outer
    # broadcast of one against the other ((B,1) predictions minus (1,B) targets) compares every pair.
    roles: dict[int, str] = field(default_factory=dict)
    weights: WeightWatch = field(default_factory=WeightWatch)  # softmax weights summed over another axis
    _contractions: list[tuple[ShapeEvent, Contraction]] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__()
        self.weights.batch_axis = self.batch_axis

    def __torch_function__(self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        with warnings.catch_warnings():
            # torch warns about some mismatches itself; we report them with the user's line instead.
            warnings.simplefilter("ignore", UserWarning)
            out = func(*args, **kwargs)
        self.n_ops += 1
        name = getattr(func, "__name__", "")
        if self.stage == "forward" and not self.reductions:
            self._check_weights(name, args, kwargs, out)
        if name == "linear" and isinstance(out, torch.Tensor) and out.dim() >= 3:
            self.linear_outs[id(out)] = out
        if name in ELEMENTWISE:
            self._check_broadcast(name, args, out)
        elif name in ELEMENTWISE_LOSSES:
            self._check_loss(name, args, kwargs)
        elif name == "squeeze":
            self._check_squeeze(args, kwargs, out)
        elif name in NORMALISERS:
            self._check_norm(name, args, kwargs)
        elif name in ("reshape", "view") and not self.reductions:
            self._check_regroup(name, args, out)
        elif self.reductions and name in REDUCTIONS:
            self._check_reduction(name, args, kwargs)
        elif self.reductions and name in PAIRWISE_PRODUCTS:
            self._check_pairwise(name, args, out)
        return out

    def mark(self, tensors: list[torch.Tensor], role: str) -> None:
        """Note which storage holds the model's outputs ("output") and which the targets ("target")."""
        for t in tensors:
            if t.numel() and (key := storage_key(t)) is not None:
                self.roles.setdefault(key, role)

    def _role(self, t: torch.Tensor) -> str | None:
        key = storage_key(t) if t.numel() else None
        return self.roles.get(key) if key is not None else None

    def __exit__(self, *exc: Any) -> Any:
        result = super().__exit__(*exc)
        dropped = [id(ev) for ev, c in self._contractions if self.weights.renormalised(c)]
        self.events = [ev for ev in self.events if id(ev) not in dropped]
        return result

    def _check_weights(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any], out: Any) -> None:
        if (c := self.weights.see(name, args, kwargs, out)) is not None:
            detail = f"normalised over axis {c.weight_axis}, summed over axis {c.summed_axis}"
            self._record("weights_off_axis", c.op, [c.shape], None, detail=detail)
            self._contractions.append((self.events[-1], c))

    def _record(self, *a: Any, **k: Any) -> None:
        self.events.append(ShapeEvent(*a, where=user_frame(), stage=self.stage, library=called_from_library(), **k))

    def _check_broadcast(self, name: str, args: tuple[Any, ...], out: Any) -> None:
        if len(args) < 2 or not isinstance(out, torch.Tensor):
            return
        a, b = args[0], args[1]
        if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
            return
        if min(a.numel(), b.numel()) <= 1:
            return  # a scalar
        across = {self._role(a), self._role(b)} == {"output", "target"}  # a prediction against its target
        if a.dim() == b.dim() and self.stage not in PAIRWISE_SUSPECT_STAGES and not across:
            return  # same-rank broadcasting (an explicit outer product, a bias)
        if out.numel() > max(a.numel(), b.numel()) and _stretched_alike(a.shape, b.shape, out.shape):
            # Both operands were stretched to each other's length: (N,1) against (N,) gives (N,N).
            self._record("broadcast", name.strip("_"), [list(a.shape), list(b.shape)], list(out.shape))

    def _check_loss(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        inp = args[0] if args else kwargs.get("input")
        tgt = args[1] if len(args) > 1 else kwargs.get("target")
        if isinstance(inp, torch.Tensor) and isinstance(tgt, torch.Tensor) and inp.shape != tgt.shape:
            self._record("loss_shape", name, [list(inp.shape), list(tgt.shape)], None)

    def _check_squeeze(self, args: tuple[Any, ...], kwargs: dict[str, Any], out: Any) -> None:
        if len(args) > 1 or "dim" in kwargs or not isinstance(out, torch.Tensor):
            return
        x = args[0]
        removed = [i for i, s in enumerate(x.shape) if s == 1]
        if removed:
            detail = "removes the batch axis" if 0 in removed else f"removes axes {removed}"
            self._record("bare_squeeze", "squeeze", [list(x.shape)], list(out.shape), detail=detail)

    def _check_norm(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        x = args[0] if args else kwargs.get("input")
        a = self.batch_axis
        if name == "normalize" and isinstance(x, torch.Tensor) and self.linear_outs.get(id(x)) is x:
            # A Linear's output keeps its features on the last axis; an L2 norm over another (non-batch) axis
            # of a (B, T, D) tensor, as F.normalize's default dim=1 does, scales each token by the others.
            given = "dim" in kwargs or len(args) > 2
            d = int(kwargs.get("dim", args[2] if len(args) > 2 else 1)) % x.dim()
            if d not in (x.dim() - 1, a):
                detail = f"dim={d}" + ("" if given else " (the default)") + f", features on axis {x.dim() - 1}"
                self._record("norm_off_features", name, [list(x.shape)], None, detail=detail)
                return
        one = _dim_arg(args, kwargs, 1)
        if name != "normalize" and isinstance(x, torch.Tensor) and x.numel() > 1 and one is not None:
            if x.dim() and x.shape[int(one) % x.dim()] == 1:  # softmax over one value: always 1 (log: 0)
                self._record("norm_over_singleton", name.strip("_"), [list(x.shape)], None, detail=f"dim={one}")
                return
        if not isinstance(x, torch.Tensor) or x.dim() < max(2, a + 1) or x.shape[a] != self.batch_size:
            return
        dim = _dim_arg(args, kwargs, 1)
        if name == "normalize":
            dim = kwargs.get("dim", args[2] if len(args) > 2 else 1)
        if dim is None:
            # torch picks dim 0 for 0-, 1- and 3-D inputs when none is given (a deprecated implicit choice).
            implicit = 0 if x.dim() in (0, 1, 3) else 1
            if implicit == a:
                self._record("norm_over_batch", name.strip("_"), [list(x.shape)], None, detail="implicit dim")
            return
        if int(dim) % x.dim() == a and self.batch_size > 1:
            self._record("norm_over_batch", name.strip("_"), [list(x.shape)], None, detail=f"dim={dim}")

    def _check_regroup(self, name: str, args: tuple[Any, ...], out: Any) -> None:
        """A reshape/view whose new axes take part of one old axis and part of another: (B, H, T, D) read as
        (B, T, H*D), (B, T, C) read as (B, C, T). Merging whole neighbouring axes or splitting one is fine."""
        x = args[0] if args else None
        if not isinstance(x, torch.Tensor) or not isinstance(out, torch.Tensor) or x.dim() < 2 or out.dim() < 2:
            return
        if _mixes_axes(list(x.shape), list(out.shape)):
            # The batch axis leading and kept whole: the mix stays inside each example, where rows that
            # stay independent of each other (the dependency test) say nothing about it.
            b = self.batch_size
            inside = self.batch_axis == 0 and b > 1 and x.shape[0] == b and out.shape[0] == b
            self._record("axis_mix", name, [list(x.shape)], list(out.shape), detail="inside each row" if inside else "")

    def _check_reduction(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        x = args[0] if args else kwargs.get("input")
        a = self.batch_axis
        if not isinstance(x, torch.Tensor) or x.dim() < max(2, a + 1) or x.shape[a] != self.batch_size:
            return
        if self.batch_size < 2:
            return
        dim = _dim_arg(args, kwargs, 1)
        dims = dim if isinstance(dim, (tuple, list)) else (dim,)
        if any(isinstance(d, int) and d % x.dim() == a for d in dims):
            self._record("batch_reduction", name, [list(x.shape)], None, detail=f"dim={dim}")

    def _check_pairwise(self, name: str, args: tuple[Any, ...], out: Any) -> None:
        """A product of two batch-indexed tensors (not weights) with two batch-sized axes: rows compared with rows."""
        B = self.batch_size
        if B < 2 or not isinstance(out, torch.Tensor) or sum(s == B for s in out.shape) < 2:
            return
        flat = [a for arg in args for a in (arg if isinstance(arg, (list, tuple)) else (arg,))]
        operands = [t for t in flat if isinstance(t, torch.Tensor) and not isinstance(t, torch.nn.Parameter)]
        if sum(B in t.shape for t in operands) >= 2:
            self._record("pairwise_batch", name, [list(t.shape) for t in operands], list(out.shape))


def _stretched_alike(a: torch.Size, b: torch.Size, out: torch.Size) -> bool:
    """Whether each operand was stretched to a length the other one had: (N,1) vs (N,) -> (N,N) is, while
    (B,1) vs (F,) -> (B,F) with B != F is an outer product written on purpose (sinusoidal embeddings, grids)."""
    n = len(out)
    a_full, b_full = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    a_grew = {o for s, o in zip(a_full, out, strict=True) if s == 1 and o > 1}
    b_grew = {o for s, o in zip(b_full, out, strict=True) if s == 1 and o > 1}
    return bool(a_grew & b_grew)


def _bounds(shape: list[int]) -> list[int]:
    """Cumulative products of the axes of size > 1: where each axis ends in the flat memory order."""
    out, acc = [], 1
    for n in shape:
        if n > 1:
            acc *= n
            out.append(acc)
    return out


def _mixes_axes(old: list[int], new: list[int]) -> bool:
    """Whether a reshape from `old` to `new` makes an axis out of parts of two old axes: some new axis
    spans an old axis boundary without starting and ending on old boundaries."""
    ob, nb = _bounds(old), _bounds(new)
    if not ob or ob[-1] != (nb[-1] if nb else 1):
        return False
    edges = {1, *ob}
    prev = 1
    for b in nb:
        if any(prev < c < b for c in ob) and not (prev in edges and b in edges):
            return True
        prev = b
    return False
