"""Speech enhancement by spectral masking, trained directly on a differentiable short-time intelligibility
(STOI-like) objective: one-third-octave band envelopes, 10-frame segments, correlation with the clean envelope.
Clips in a batch have different lengths and are zero-padded at the end."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_BINS, N_BANDS, SEG, EPS = 32, 8, 10, 1e-8


def band_matrix(n_bins=N_BINS, n_bands=N_BANDS):
    edges = torch.linspace(0, n_bins, n_bands + 1).round().long()
    m = torch.zeros(n_bands, n_bins)
    for b in range(n_bands):
        m[b, edges[b]:edges[b + 1]] = 1.0
    return m


def meanvar_norm(x, dim):
    x = x - x.mean(dim=dim, keepdim=True)
    return x / (x.norm(p=2, dim=dim, keepdim=True) + EPS)


class NegSTOILike(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("obm", band_matrix())

    def band_envelope(self, mag):  # mag: (batch, frames, bins) -> (batch, bands, frames)
        return torch.matmul(self.obm, mag.pow(2).transpose(1, 2)).pow(0.5)

    def forward(self, est_mag, clean_mag):
        x = self.band_envelope(clean_mag).unfold(2, SEG, 1)  # (batch, bands, n_seg, SEG)
        y = self.band_envelope(est_mag).unfold(2, SEG, 1)
        scale = x.norm(dim=-1, keepdim=True) / (y.norm(dim=-1, keepdim=True) + EPS)
        y = y * scale
        corr = (meanvar_norm(x, -1) * meanvar_norm(y, -1)).sum(-1)
        return -corr.mean()


class MaskNet(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(N_BINS, hidden), nn.ReLU(), nn.Linear(hidden, N_BINS))

    def forward(self, noisy_mag):
        return torch.sigmoid(self.net(noisy_mag)) * noisy_mag


criterion = NegSTOILike()


def loss_fn(est, clean):
    return criterion(est, clean)


def make_batch(n, seed, frames=48):
    g = torch.Generator().manual_seed(seed)
    clean = torch.rand(n, frames, N_BINS, generator=g) ** 2 * 3
    noisy = clean + 0.5 * torch.rand(n, frames, N_BINS, generator=g)
    lengths = torch.randint(frames // 2, frames + 1, (n,), generator=g)
    for i, L in enumerate(lengths.tolist()):
        clean[i, L:] = 0.0
        noisy[i, L:] = 0.0
    return noisy, clean


def make_target():
    torch.manual_seed(0)
    noisy, clean = make_batch(8, seed=1)
    return {
        "model": MaskNet(),
        "batch": (noisy, clean),
        "loss_fn": loss_fn,
        "val_data": [make_batch(8, seed=2)],
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
    }
