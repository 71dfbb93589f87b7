"""Our own healthy models whose designs look like bugs to a naive probe: a VAE (sampled latent, a loss
with a floor), a SimCLR-style encoder (a contrastive loss couples rows), a diffusion denoiser (noise and
timestep drawn in forward, sinusoidal outer product, GroupNorm) and an actor-critic (a policy-gradient
loss with no floor)."""

import math

import torch
from torch import nn
from torch.nn import functional as F


class VAE(nn.Module):
    def __init__(self, d: int = 20, z: int = 4) -> None:
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 2 * z))
        self.dec = nn.Sequential(nn.Linear(z, 32), nn.ReLU(), nn.Linear(32, d))

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, -1)  # (B, z) each
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp() if self.training else mu
        return self.dec(z), mu, logvar


def elbo(out, x):
    rec, mu, logvar = out
    kl = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(-1).mean()
    return F.mse_loss(rec, x, reduction="none").sum(-1).mean() + kl


def make_vae():
    torch.manual_seed(0)
    x = torch.randn(256, 20)
    return {"model": VAE(), "batch": (x[:32], x[:32]), "loss_fn": elbo,
            "train_data": (x[:192], x[:192]), "val_data": (x[192:], x[192:])}  # fmt: skip


class TwoViews(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.f = nn.Sequential(nn.Linear(16, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 32))

    def forward(self, x):  # x: (B, 2, 16), two augmented views per row
        z = F.normalize(self.f(x.flatten(0, 1)), dim=-1)  # (2B, 32)
        return z.view(x.shape[0], 2, -1)


def info_nce(z, _unused, tau: float = 0.2):
    a, b = z[:, 0], z[:, 1]  # (B, D)
    return F.cross_entropy(a @ b.t() / tau, torch.arange(a.shape[0]))  # (B, B): the other rows are negatives


def make_simclr():
    torch.manual_seed(0)
    base = torch.randn(32, 16)
    views = torch.stack([base + 0.1 * torch.randn_like(base), base + 0.1 * torch.randn_like(base)], 1)
    return {"model": TwoViews(), "batch": (views, torch.zeros(32)), "loss_fn": info_nce}


class Denoiser(nn.Module):
    """Predicts the noise added at a random timestep; forward draws both, as many training scripts do."""

    def __init__(self, c: int = 8, steps: int = 100) -> None:
        super().__init__()
        self.register_buffer("abar", torch.cumprod(1 - torch.linspace(1e-4, 0.02, steps), 0))
        self.temb = nn.Sequential(nn.Linear(16, c), nn.SiLU())
        self.inp, self.norm = nn.Conv2d(1, c, 3, padding=1), nn.GroupNorm(4, c)
        self.down, self.up = nn.Conv2d(c, c, 3, stride=2, padding=1), nn.ConvTranspose2d(c, c, 4, stride=2, padding=1)
        self.out = nn.Conv2d(2 * c, 1, 3, padding=1)

    def forward(self, x0):  # x0: (B, 1, H, W)
        t = torch.randint(0, len(self.abar), (x0.shape[0],))
        noise = torch.randn_like(x0)
        a = self.abar[t].view(-1, 1, 1, 1)
        xt = a.sqrt() * x0 + (1 - a).sqrt() * noise
        freqs = torch.exp(-math.log(1000) * torch.arange(8) / 8)  # (8,)
        emb = torch.cat([torch.sin(t[:, None] * freqs), torch.cos(t[:, None] * freqs)], -1)  # (B, 16)
        h = F.silu(self.norm(self.inp(xt))) + self.temb(emb)[:, :, None, None]
        u = F.silu(self.up(F.silu(self.down(h))))
        return self.out(torch.cat([h, u], 1)), noise


def make_diffusion():
    torch.manual_seed(0)
    x = torch.randn(16, 1, 16, 16).clamp(-1, 1)
    return {"model": Denoiser(), "batch": (x, x), "loss_fn": lambda out, _: F.mse_loss(*out)}


class ActorCritic(nn.Module):
    def __init__(self, obs: int = 6, act: int = 3) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh())
        self.pi, self.v = nn.Linear(64, act), nn.Linear(64, 1)

    def forward(self, s):
        h = self.body(s)
        return self.pi(h), self.v(h).squeeze(-1)


def a2c_loss(out, rollout):
    logits, value = out
    actions, returns = rollout[:, 0].long(), rollout[:, 1]
    advantage = (returns - value).detach()
    logp = F.log_softmax(logits, -1)
    entropy = -(logp.exp() * logp).sum(-1).mean()
    chosen = logp.gather(1, actions[:, None]).squeeze(1)
    return -(chosen * advantage).mean() + 0.5 * F.mse_loss(value, returns) - 0.01 * entropy


def make_actor_critic():
    torch.manual_seed(0)
    states = torch.randn(64, 6)
    rollout = torch.stack([torch.randint(0, 3, (64,)).float(), torch.randn(64)], 1)
    return {"model": ActorCritic(), "batch": (states, rollout), "loss_fn": a2c_loss}
