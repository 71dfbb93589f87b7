"""Video-text retrieval: ReduceDim (Linear + F.normalize with the default dim=1) is applied to (B, tokens, D) features."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, TOK, EXPERT_DIM, TXT_DIM, D = 8, 12, 40, 24, 32


class ReduceDim(nn.Module):
    def __init__(self, d_in, d_out, fixed=False):
        super().__init__()
        self.fc = nn.Linear(d_in, d_out)
        self.fixed = fixed

    def forward(self, x):
        x = self.fc(x)
        return F.normalize(x, dim=-1) if self.fixed else F.normalize(x)  # default dim=1


class Retrieval(nn.Module):
    def __init__(self, fixed=False):
        super().__init__()
        self.video_reduce = ReduceDim(EXPERT_DIM, D, fixed)
        self.video_agg = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(D, 4, 64, dropout=0.0, batch_first=True), num_layers=1)
        self.text_reduce = ReduceDim(TXT_DIM, D, fixed)

    def encode_video(self, tokens):  # (B, TOK, EXPERT_DIM)
        h = self.video_reduce(tokens)  # per-token embeddings
        h = self.video_agg(h)
        return F.normalize(h.mean(1), dim=-1)

    def forward(self, video_tokens, text):
        return self.encode_video(video_tokens), F.normalize(self.text_reduce(text), dim=-1)


def contrastive_loss(outputs, targets, temperature=0.05):
    v, t = outputs
    logits = v @ t.t() / temperature
    return F.cross_entropy(logits, targets)


def make_batch(g, n=B):
    video = torch.randn(n, TOK, EXPERT_DIM, generator=g)
    proj = torch.randn(EXPERT_DIM, TXT_DIM, generator=torch.Generator().manual_seed(123)) / EXPERT_DIM ** 0.5
    text = video.mean(1) @ proj + 0.1 * torch.randn(n, TXT_DIM, generator=g)
    return video, text


def make_target():
    torch.manual_seed(0)
    video, text = make_batch(torch.Generator().manual_seed(0))
    return {
        "model": Retrieval(),
        "batch": ((video, text), torch.arange(B)),
        "loss_fn": contrastive_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
    }
