"""Reconstruction net with a feature-alignment (adversarial) term that is turned into a Python float."""
import torch
import torch.nn as nn
import torch.nn.functional as F

ADV_WEIGHT = 1.0


class ReconNet(nn.Module):
    def __init__(self, d=32, feat=16):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(d, feat), nn.ReLU())
        self.align = nn.Linear(feat, feat)  # only trained through the adversarial term
        self.decoder = nn.Linear(feat, d)
        self.domain_head = nn.Linear(feat, 1)  # frozen site discriminator (trained separately)
        for p in self.domain_head.parameters():
            p.requires_grad_(False)

    def forward(self, x):
        f = self.encoder(x)
        return self.decoder(f), self.domain_head(torch.tanh(self.align(f)))


def recon_adv_loss(output, targets):
    recon, domain_logits = output
    clean, fake_domain = targets
    loss_rec = F.l1_loss(recon, clean)
    loss_adv_g = F.binary_cross_entropy_with_logits(domain_logits, fake_domain)
    loss_adv_g = loss_adv_g.detach().item()  # BUG: meant only for the logging list
    return loss_rec + ADV_WEIGHT * loss_adv_g


def make_target():
    torch.manual_seed(0)
    clean = torch.randn(32, 32)
    noisy = clean + 0.3 * torch.randn(32, 32)
    fake_domain = torch.ones(32, 1)  # generator wants the discriminator to say "other site"
    return {
        "model": ReconNet(),
        "batch": (noisy, (clean, fake_domain)),
        "loss_fn": recon_adv_loss,
    }
