"""Small CLIP-style vision encoder re-implemented by hand (pre-LN blocks, class token, projection),
used for zero-shot classification against fixed text prototypes."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, hidden, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = hidden // num_heads
        self.q_proj = nn.Linear(hidden, hidden)
        self.k_proj = nn.Linear(hidden, hidden)
        self.v_proj = nn.Linear(hidden, hidden)
        self.out_proj = nn.Linear(hidden, hidden)
        for lin in (self.q_proj, self.k_proj, self.v_proj):   # projection weights at the magnitude of a trained checkpoint
            nn.init.normal_(lin.weight, std=0.08)
        # scale the scores by 1/sqrt(head_dim)
        self.scale = self.num_heads ** -0.5

    def forward(self, x):
        b, t, c = x.shape
        def split(z):
            return z.view(b, t, self.num_heads, self.head_dim).transpose(1, 2)
        q, k, v = split(self.q_proj(x)), split(self.k_proj(x)), split(self.v_proj(x))
        scores = (q @ k.transpose(-2, -1)) * self.scale
        attn = scores.softmax(dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(b, t, c)
        return self.out_proj(out)


class Block(nn.Module):
    def __init__(self, hidden, num_heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(hidden)
        self.attn = MultiHeadAttention(hidden, num_heads)
        self.ln2 = nn.LayerNorm(hidden)
        self.mlp = nn.Sequential(nn.Linear(hidden, 2 * hidden), nn.GELU(), nn.Linear(2 * hidden, hidden))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class VisionEncoder(nn.Module):
    def __init__(self, patch_dim=48, hidden=384, num_heads=6, layers=2, n_patches=16, embed=64, n_classes=5):
        super().__init__()
        self.patch = nn.Linear(patch_dim, hidden)
        self.cls = nn.Parameter(torch.randn(1, 1, hidden))
        self.pos = nn.Parameter(torch.randn(1, n_patches + 1, hidden) * 0.5)
        self.blocks = nn.ModuleList(Block(hidden, num_heads) for _ in range(layers))
        self.ln_post = nn.LayerNorm(hidden)
        self.proj = nn.Linear(hidden, embed, bias=False)
        self.register_buffer("text_protos", F.normalize(torch.randn(n_classes, embed), dim=-1))
        self.logit_scale = 100.0

    def image_features(self, patches):
        x = self.patch(patches)
        x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1) + self.pos
        for blk in self.blocks:
            x = blk(x)
        return self.proj(self.ln_post(x[:, 0]))

    def forward(self, patches):
        feats = F.normalize(self.image_features(patches), dim=-1)
        return self.logit_scale * feats @ self.text_protos.t()


def make_target():
    torch.manual_seed(0)
    model = VisionEncoder()
    patches = torch.randn(8, 16, 48)
    labels = torch.randint(0, 5, (8,))
    return {
        "model": model,
        "batch": (patches, labels),
        "loss_fn": nn.CrossEntropyLoss(),
        "metric_fn": lambda logits, y: (logits.argmax(-1) == y).float().mean().item(),
    }
