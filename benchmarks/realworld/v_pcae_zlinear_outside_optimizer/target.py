"""A toy sentence VAE: a backbone (encoder + decoder) and a latent projection added by the VAE wrapper."""

import torch
from torch import nn
import torch.nn.functional as F


class Backbone(nn.Module):
    def __init__(self, vocab=40, d=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.encoder = nn.GRU(d, d, batch_first=True)
        self.decoder = nn.GRU(d, d, batch_first=True)
        self.lm_head = nn.Linear(d, vocab)


class SentenceVAE(nn.Module):
    def __init__(self, vocab=40, d=32, nz=8):
        super().__init__()
        self.bart = Backbone(vocab, d)
        self.z_linear = nn.Linear(d, 2 * nz, bias=False)
        self.z_to_h = nn.Linear(nz, d)
        self.bart.z_to_h = self.z_to_h  # the decoder side of the latent lives with the backbone

    def forward(self, ids):
        emb = self.bart.embed(ids)
        _, h = self.bart.encoder(emb)
        mu, logvar = self.z_linear(h[-1]).chunk(2, dim=-1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        h0 = self.z_to_h(z).unsqueeze(0)
        out, _ = self.bart.decoder(emb, h0)
        return self.bart.lm_head(out), mu, logvar


def vae_loss(output, ids):
    logits, mu, logvar = output
    rec = F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), ids[:, 1:].reshape(-1))
    kl = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(-1).mean()
    return rec + kl


def make_target():
    torch.manual_seed(0)
    ids = torch.randint(0, 40, (8, 12))
    return {
        "model": SentenceVAE(),
        "batch": (ids, ids),
        "loss_fn": vae_loss,
        "optimizer": lambda model: torch.optim.AdamW(model.bart.parameters(), lr=1e-3),
    }
