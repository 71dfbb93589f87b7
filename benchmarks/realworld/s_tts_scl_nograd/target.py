"""Tiny vocoder-style generator trained with a reconstruction loss plus a speaker consistency loss from a frozen
speaker encoder. The speaker encoder builds its input 'spectrogram' under torch.no_grad(), as a preprocessing step."""

import torch
from torch import nn
import torch.nn.functional as F


class SpeakerEncoder(nn.Module):
    def __init__(self, n_samples=64, n_bins=32, d_emb=16):
        super().__init__()
        self.stft = nn.Linear(n_samples, n_bins, bias=False)  # fixed analysis filters
        self.proj = nn.Sequential(nn.Linear(n_bins, 32), nn.ReLU(), nn.Linear(32, d_emb))
        for p in self.parameters():
            p.requires_grad_(False)  # pretrained, frozen

    def forward(self, wav):
        with torch.no_grad():
            spec = torch.log1p(self.stft(wav).abs())
        return F.normalize(self.proj(spec), dim=-1)


class TTSModel(nn.Module):
    def __init__(self, d_text=24, d_spk=8, n_samples=64):
        super().__init__()
        self.spk_table = nn.Embedding(4, d_spk)
        self.gen = nn.Sequential(nn.Linear(d_text + d_spk, 64), nn.Tanh(), nn.Linear(64, n_samples))
        self.speaker_encoder = SpeakerEncoder(n_samples)

    def forward(self, text, spk):
        wav = self.gen(torch.cat([text, self.spk_table(spk)], dim=-1))
        return wav, self.speaker_encoder(wav)


SCL_WEIGHT = 9.0


def loss_fn(out, targets):
    wav, emb = out
    wav_ref, emb_ref = targets
    # the 'mel' reconstruction term only sees a coarse envelope of the waveform
    recon = F.l1_loss(F.avg_pool1d(wav.unsqueeze(1), 8), F.avg_pool1d(wav_ref.unsqueeze(1), 8))
    scl = (1 - F.cosine_similarity(emb, emb_ref, dim=-1)).mean()
    return recon + SCL_WEIGHT * scl


def make_batch(model, n=32, seed=1):
    g = torch.Generator().manual_seed(seed)
    text = torch.randn(n, 24, generator=g)
    spk = torch.randint(0, 4, (n,), generator=g)
    wav_ref = torch.randn(n, 64, generator=g) * 0.5
    with torch.no_grad():
        emb_ref = model.speaker_encoder(wav_ref)
    return (text, spk), (wav_ref, emb_ref)


def make_target():
    torch.manual_seed(0)
    model = TTSModel()
    batch = make_batch(model)
    return {
        "model": model,
        "batch": batch,
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.Adam([q for q in p if q.requires_grad], lr=1e-3),
    }
