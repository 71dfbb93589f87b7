"""Small CTC speech recogniser (conv subsampling-free front end + conformer-ish block: conv module and
self-attention) on log-mel style features; character vocabulary with blank = 0."""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, N_MELS, FRAMES_PER_CHAR = 9, 16, 4   # 8 characters + blank


class ConvModule(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.pw1 = nn.Linear(d, 2 * d)
        self.dw = nn.Conv1d(d, d, 5, padding=2, groups=d)
        self.pw2 = nn.Linear(d, d)

    def forward(self, x):
        y = F.glu(self.pw1(self.norm(x)), dim=-1)
        y = F.silu(self.dw(y.transpose(1, 2)).transpose(1, 2))
        return x + self.pw2(y)


class TinyConformer(nn.Module):
    def __init__(self, d=48, heads=4):
        super().__init__()
        self.inp = nn.Linear(N_MELS, d)
        self.ff = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 2 * d), nn.SiLU(), nn.Linear(2 * d, d))
        self.attn_norm = nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.conv = ConvModule(d)
        self.out = nn.Linear(d, VOCAB)

    def forward(self, feats):
        x = self.inp(feats)
        x = x + 0.5 * self.ff(x)
        h = self.attn_norm(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        x = self.conv(x)
        return self.out(x).log_softmax(-1)          # (B, T, VOCAB)


def ctc_loss(log_probs, targets):
    labels, label_lens = targets
    B, T, _ = log_probs.shape
    input_lens = torch.full((B,), T, dtype=torch.long)
    return F.ctc_loss(log_probs.transpose(0, 1), labels, input_lens, label_lens, blank=0, reduction="sum") / B


def make_split(n_batches=4, batch=16, n_chars=8, seed=0):
    g = torch.Generator().manual_seed(seed)
    templates = torch.randn(VOCAB, N_MELS, generator=torch.Generator().manual_seed(123))
    out = []
    for _ in range(n_batches):
        labels = torch.randint(1, VOCAB, (batch, n_chars), generator=g)
        feats = templates[labels].repeat_interleave(FRAMES_PER_CHAR, dim=1)
        feats = feats + 0.6 * torch.randn(feats.shape, generator=g)
        out.append((feats, (labels, torch.full((batch,), n_chars, dtype=torch.long))))
    return out


def make_target():
    torch.manual_seed(0)
    train = make_split(seed=0)
    return {
        "model": TinyConformer(),
        "batch": train[0],
        "loss_fn": ctc_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": train,
        "val_data": make_split(n_batches=1, seed=1),
    }
