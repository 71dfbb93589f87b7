"""BERT-proxy encoder: hand-written multi-head self-attention + MLP, masked-token classification head."""
import torch
import torch.nn as nn

VOCAB, SEQ, DIM, HEADS = 100, 16, 128, 2


class SelfAttention(nn.Module):
    def __init__(self, dim=DIM, heads=HEADS):
        super().__init__()
        self.heads, self.kdim = heads, dim // heads
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.o = nn.Linear(dim, dim)

    def forward(self, x):
        b, t, d = x.shape
        q = self.q(x).view(b, t, self.heads, self.kdim).transpose(1, 2)
        k = self.k(x).view(b, t, self.heads, self.kdim).transpose(1, 2)
        v = self.v(x).view(b, t, self.heads, self.kdim).transpose(1, 2)
        scores = q @ k.transpose(-1, -2)
        attn = scores.softmax(dim=-1)
        return self.o((attn @ v).transpose(1, 2).reshape(b, t, d))


class BertProxy(nn.Module):
    def __init__(self, layers=1):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Parameter(torch.randn(SEQ, DIM))
        self.blocks = nn.ModuleList()
        for _ in range(layers):
            self.blocks.append(nn.ModuleDict({"attn": SelfAttention(), "ln1": nn.LayerNorm(DIM),
                                              "mlp": nn.Sequential(nn.Linear(DIM, 2 * DIM), nn.GELU(), nn.Linear(2 * DIM, DIM)),
                                              "ln2": nn.LayerNorm(DIM)}))
        self.out = nn.Linear(DIM, VOCAB)

    def forward(self, ids):
        x = self.embed(ids) + self.pos
        for blk in self.blocks:
            x = blk["ln1"](x + blk["attn"](x))
            x = blk["ln2"](x + blk["mlp"](x))
        return self.out(x)


def make_target():
    torch.manual_seed(0)
    model = BertProxy()
    ids = torch.randint(0, VOCAB, (16, SEQ))
    labels = torch.roll(ids, 1, dims=1)
    return {
        "model": model,
        "batch": (ids, labels),
        "loss_fn": lambda out, y: nn.functional.cross_entropy(out.flatten(0, 1), y.flatten()),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
    }
