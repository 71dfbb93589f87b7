"""Toy captioner: a patch encoder read through an 'extractor' wrapper that detaches its output."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PatchEncoder(nn.Module):
    def __init__(self, patch_dim=12, dim=32):
        super().__init__()
        self.proj = nn.Linear(patch_dim, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))

    def forward(self, patches):
        h = self.proj(patches)
        return h + self.mlp(h)


class Extractor(nn.Module):
    """Runs the encoder and hands back its token embeddings."""

    def __init__(self, encoder):
        super().__init__()
        self.encoder = encoder

    def forward(self, patches):
        tokens = self.encoder(patches)
        return tokens.clone().detach()  # BUG: cuts the graph to the image encoder


class ToyCaptioner(nn.Module):
    def __init__(self, vocab=20, dim=32):
        super().__init__()
        self.image = Extractor(PatchEncoder(dim=dim))
        self.tok = nn.Embedding(vocab, dim)
        self.attn = nn.MultiheadAttention(dim, 4, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, patches, text):
        img = self.image(patches)
        q = self.tok(text)
        h, _ = self.attn(q, img, img)
        return self.out(q + h)


def caption_loss(logits, labels):
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1))


def make_target():
    torch.manual_seed(0)
    patches = torch.randn(8, 9, 12)
    text = torch.randint(0, 20, (8, 6))
    labels = torch.randint(0, 20, (8, 6))
    return {
        "model": ToyCaptioner(),
        "batch": ((patches, text), labels),
        "loss_fn": caption_loss,
    }
