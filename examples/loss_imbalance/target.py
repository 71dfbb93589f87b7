"""An autoencoder with an auxiliary classification head: the reconstruction loss is summed over every pixel
of every image, so it is thousands of times larger than the cross-entropy it is added to."""

import torch
from torch import nn
from torch.nn import functional as F


class AutoencoderClassifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.encoder = nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU())
        self.decoder = nn.Linear(16, 64)
        self.classifier = nn.Linear(16, 4)

    def forward(self, images: torch.Tensor) -> dict[str, torch.Tensor]:
        z = self.encoder(images)  # (B, 16), shared by both heads
        return {"logits": self.classifier(z), "recon": self.decoder(z).view_as(images), "images": images}


def training_loss(out: dict[str, torch.Tensor], labels: torch.Tensor) -> torch.Tensor:
    recon_loss = F.mse_loss(out["recon"], out["images"], reduction="sum")  # BUG: summed over B*64 values
    cls_loss = F.cross_entropy(out["logits"], labels)
    return recon_loss + cls_loss


def make_target():
    torch.manual_seed(0)
    images = torch.randn(32, 1, 8, 8)
    labels = (images.mean((1, 2, 3)) > 0).long() + 2 * (images[:, 0, :4, :4].mean((1, 2)) > 0).long()
    return {"model": AutoencoderClassifier(), "batch": (images, labels), "loss_fn": training_loss}
