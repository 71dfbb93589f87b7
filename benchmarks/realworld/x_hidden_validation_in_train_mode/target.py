"""HiDDeN-style message decoder with BatchNorm; the validation / test loop runs the network without switching it
to eval(), so BatchNorm normalises with the statistics of whatever batch is being decoded."""

import torch
import torch.nn as nn
import torch.nn.functional as F

BITS, C, H = 3, 3, 8


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(C, 16, 1)
        self.bn = nn.BatchNorm2d(16)
        self.fc = nn.Linear(16, BITS)

    def forward(self, img):
        h = F.relu(self.bn(self.conv(img)))
        return self.fc(h.mean(dim=(2, 3)))


def make_batch(g, n=64):
    bits = torch.randint(0, 2, (n, BITS), generator=g).float()
    img = 0.5 * torch.randn(n, C, H, H, generator=g) + (2 * bits - 1)[:, :, None, None] * 0.8
    return img, bits


def bit_error(logits, bits):
    return ((logits > 0).float() != bits).float().mean().item()


def validate(model, batches):
    """As in the training script: no model.eval(), only no_grad."""
    with torch.no_grad():
        return sum(bit_error(model(x), y) for x, y in batches) / len(batches)


def make_target():
    torch.manual_seed(0)
    img, bits = make_batch(torch.Generator().manual_seed(0))
    return {
        "model": Decoder(),
        "batch": (img, bits),
        "loss_fn": F.binary_cross_entropy_with_logits,
        "optimizer": lambda p: torch.optim.Adam(p, lr=0.01),
        "metric_fn": bit_error,
    }
