"""Tiny CLIP-style image/text dual encoder trained from scratch with a symmetric InfoNCE loss (healthy code)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N_CONCEPTS, IMG_DIM, TXT_VOCAB, TXT_LEN = 64, 48, 200, 6


class TinyCLIP(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.visual = nn.Sequential(nn.Linear(IMG_DIM, 64), nn.ReLU(), nn.Linear(64, dim))
        self.tok = nn.EmbeddingBag(TXT_VOCAB, 64, mode="mean")
        self.text_proj = nn.Linear(64, dim)
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))

    def forward(self, image, text):
        img = F.normalize(self.visual(image), dim=-1)
        txt = F.normalize(self.text_proj(self.tok(text)), dim=-1)
        return self.logit_scale.exp() * img @ txt.t()          # (B, B) image-to-text logits


def clip_loss(logits, _labels=None):
    target = torch.arange(logits.size(0))
    return 0.5 * (F.cross_entropy(logits, target) + F.cross_entropy(logits.t(), target))


def _pairs(n, seed):
    g = torch.Generator().manual_seed(99)
    img_protos = torch.randn(N_CONCEPTS, IMG_DIM, generator=g)
    txt_protos = torch.randint(0, TXT_VOCAB, (N_CONCEPTS, TXT_LEN), generator=g)
    g = torch.Generator().manual_seed(seed)
    c = torch.randint(0, N_CONCEPTS, (n,), generator=g)
    image = img_protos[c] + 0.5 * torch.randn(n, IMG_DIM, generator=g)
    text = txt_protos[c].clone()
    drop = torch.rand(n, TXT_LEN, generator=g) < 0.2
    text[drop] = torch.randint(0, TXT_VOCAB, (int(drop.sum()),), generator=g)
    return (image, text), torch.zeros(n, dtype=torch.long)


def make_target():
    torch.manual_seed(0)
    (image, text), y = _pairs(8, 1)          # batch size 8, as in the report
    return {
        "model": TinyCLIP(),
        "batch": ((image, text), y),
        "loss_fn": clip_loss,
        "optimizer": lambda params: torch.optim.AdamW(params, lr=5e-5, weight_decay=0.001),
        "train_data": _pairs(1024, 2),
        "val_data": _pairs(128, 3),
    }
