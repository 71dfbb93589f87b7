"""TSViT-like dense head: patch tokens -> per-pixel logits, folded back into an image with a bare reshape."""
import torch
from torch import nn
import torch.nn.functional as F

B, C_IN, H, W, P, N_CLS, DIM = 16, 3, 8, 8, 2, 2, 32


class TinyDenseViT(nn.Module):
    def __init__(self):
        super().__init__()
        self.np1d = H // P
        self.embed = nn.Linear(C_IN * P * P, DIM)
        self.mix = nn.Sequential(nn.LayerNorm(DIM), nn.Linear(DIM, DIM), nn.GELU())
        self.mlp_head = nn.Linear(DIM, N_CLS * P * P)

    def forward(self, x):
        b = x.shape[0]
        # patchify (correct): (B, C, H, W) -> (B, N, C*P*P)
        t = x.reshape(b, C_IN, self.np1d, P, self.np1d, P).permute(0, 2, 4, 1, 3, 5)
        t = t.reshape(b, self.np1d * self.np1d, C_IN * P * P)
        t = self.embed(t)
        t = t + self.mix(t)
        out = self.mlp_head(t.reshape(-1, DIM))
        out = out.reshape(b, self.np1d ** 2, N_CLS, P * P).permute(0, 1, 3, 2)  # (B, N, P*P, classes)
        out = out.reshape(b, H, W, N_CLS)  # unpatchify by plain reshape
        return out.permute(0, 3, 1, 2)  # (B, classes, H, W)


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, C_IN, H, W, generator=g)
    y = (x[:, 0] + 0.5 * x[:, 1] > 0).long()  # label of a pixel depends only on that pixel
    return x, y


def make_target():
    torch.manual_seed(0)
    model = TinyDenseViT()
    x, y = make_data(B, 1)
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "train_data": make_data(256, 2),
        "val_data": make_data(128, 3),
    }
