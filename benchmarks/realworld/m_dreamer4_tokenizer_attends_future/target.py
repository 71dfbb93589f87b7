"""Video tokenizer for a world model: frames -> per-frame latent tokens -> reconstructed frames, with attention over
time in the encoder and the decoder. The attention function is built without causal=True."""

import torch
from torch import nn
import torch.nn.functional as F


def get_attend_fn(causal=False):
    def attend(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    return attend


class TimeBlock(nn.Module):
    def __init__(self, dim, heads=4, causal=False):
        super().__init__()
        self.heads = heads
        self.norm = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.ff = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.attend = get_attend_fn(causal=causal)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.norm(x)).chunk(3, -1)
        q, k, v = (z.view(b, t, self.heads, -1).transpose(1, 2) for z in (q, k, v))
        x = x + self.out(self.attend(q, k, v).transpose(1, 2).reshape(b, t, d))
        return x + self.ff(x)


class VideoTokenizer(nn.Module):
    def __init__(self, frame_dim=48, dim=32, latent=8):
        super().__init__()
        self.patch = nn.Linear(frame_dim, dim)
        self.enc = nn.ModuleList([TimeBlock(dim), TimeBlock(dim)])
        self.to_latent = nn.Linear(dim, latent)
        self.from_latent = nn.Linear(latent, dim)
        self.dec = nn.ModuleList([TimeBlock(dim), TimeBlock(dim)])
        self.unpatch = nn.Linear(dim, frame_dim)

    def encode(self, frames):  # (B, T, frame_dim) -> (B, T, latent)
        h = self.patch(frames)
        for blk in self.enc:
            h = blk(h)
        return torch.tanh(self.to_latent(h))

    def decode(self, z):
        h = self.from_latent(z)
        for blk in self.dec:
            h = blk(h)
        return self.unpatch(h)

    def forward(self, frames):
        return self.decode(self.encode(frames))


def make_clips(n, t=12, frame_dim=48, seed=0):
    g = torch.Generator().manual_seed(seed)
    pos = torch.rand(n, 1, 2, generator=g)
    vel = (torch.rand(n, 1, 2, generator=g) - 0.5) * 0.2
    steps = torch.arange(t).view(1, t, 1)
    traj = (pos + vel * steps) % 1.0
    grid = torch.linspace(0, 1, frame_dim // 2).view(1, 1, -1)
    fx = torch.exp(-((grid - traj[..., :1]) ** 2) / 0.01)
    fy = torch.exp(-((grid - traj[..., 1:]) ** 2) / 0.01)
    return torch.cat([fx, fy], -1)


def make_target():
    torch.manual_seed(0)
    model = VideoTokenizer()
    clips = make_clips(16, seed=1)
    return {
        "model": model,
        "batch": (clips, clips),
        "loss_fn": F.mse_loss,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=1e-3),
        "causal": True,
        "sequence_dim": 1,
        "train_data": [(c, c) for c in (make_clips(16, seed=s) for s in range(2, 10))],
    }
