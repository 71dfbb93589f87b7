"""Own models for the probes added in the sixth push: losses that keep a floor (soft targets, distillation)
and layouts scrambled inside each example (patches by reshape, a sequence viewed for a Conv1d)."""

import torch
import torch.nn.functional as F
from torch import nn


def _gen(seed: int) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def _mlp(width: int = 64, classes: int = 10) -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(20, width), nn.ReLU(), nn.Linear(width, classes))


def make_soft_targets():
    """Labels are a teacher's probabilities: cross-entropy's floor is their entropy, not zero."""
    x = torch.randn(32, 20, generator=_gen(0))
    y = torch.softmax(torch.randn(32, 10, generator=_gen(1)), -1)  # (B, 10) rows summing to 1
    model = _mlp()
    return {"model": model, "batch": (x, y), "loss_fn": F.cross_entropy,
            "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3)}  # fmt: skip


def distill_loss(out: torch.Tensor, y: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
    """Softened KL to the teacher plus cross-entropy on hard labels: two terms that pull apart."""
    t_logits, hard = y
    kd = F.kl_div(F.log_softmax(out / 2, -1), F.softmax(t_logits / 2, -1), reduction="batchmean") * 4
    return 0.7 * kd + 0.3 * F.cross_entropy(out, hard)


def make_distill():
    x = torch.randn(32, 20, generator=_gen(0))
    torch.manual_seed(1)
    teacher = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5)).eval()
    with torch.no_grad():
        soft = teacher(x)
    return {"model": _mlp(16, 5), "batch": (x, (soft, soft.argmax(-1))), "loss_fn": distill_loss}


class PatchViT(nn.Module):
    """A small vision transformer: (B, 3, 16, 16) cut into 16 patches of 3*4*4 values."""

    def __init__(self, reshape_bug: bool = False) -> None:
        super().__init__()
        self.reshape_bug = reshape_bug
        self.proj = nn.Linear(48, 16)
        layer = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 1)
        self.head = nn.Linear(16, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b = x.shape[0]
        p = x.unfold(2, 4, 4).unfold(3, 4, 4)  # (B, C, nh, nw, ph, pw)
        if self.reshape_bug:
            tokens = p.reshape(b, 16, 48)  # BUG: channels land in the patch axis
        else:
            tokens = p.permute(0, 2, 3, 1, 4, 5).reshape(b, 16, 48)  # (B, nh*nw, C*ph*pw)
        return self.head(self.enc(self.proj(tokens)).mean(1))


def _images():
    x = torch.randn(8, 3, 16, 16, generator=_gen(0))
    return x, torch.arange(8) % 4


def make_vit():
    torch.manual_seed(0)
    return {"model": PatchViT(), "batch": _images(), "loss_fn": F.cross_entropy}


def make_vit_patches_reshape():
    torch.manual_seed(0)
    return {"model": PatchViT(reshape_bug=True), "batch": _images(), "loss_fn": F.cross_entropy}


class SensorCNN(nn.Module):
    """(B, T, C) sensor windows into a Conv1d that wants (B, C, T)."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv1d(6, 16, 5, padding=2)
        self.head = nn.Linear(16, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, c = x.shape
        h = x.view(b, c, t)  # BUG: meant x.transpose(1, 2); same shape, scrambled memory
        return self.head(F.relu(self.conv(h)).mean(-1))


def make_sensor_view():
    torch.manual_seed(0)
    x = torch.randn(16, 50, 6, generator=_gen(0))
    return {"model": SensorCNN(), "batch": (x, torch.arange(16) % 3), "loss_fn": F.cross_entropy}
