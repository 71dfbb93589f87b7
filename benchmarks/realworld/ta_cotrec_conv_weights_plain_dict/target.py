"""Session recommender (COTREC-like, tiny): item embeddings refined by stacked item-graph convolutions,
a session embedding is the mean of its refined items, scored against all items."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_ITEMS = 60


class ItemConv(nn.Module):
    def __init__(self, layers=2, emb=32):
        super().__init__()
        self.layers = layers
        self.w_item = {}
        for i in range(layers):
            self.w_item["weight_item%d" % i] = nn.Linear(emb, emb, bias=False)

    def forward(self, adjacency, embedding):
        x = embedding
        final = [x]
        for i in range(self.layers):
            x = self.w_item["weight_item%d" % i](x)
            x = adjacency @ x
            final.append(F.normalize(x, dim=-1, p=2))
        return torch.stack(final).sum(0) / (self.layers + 1)


class COTRECLite(nn.Module):
    def __init__(self, adjacency, emb=32, layers=2):
        super().__init__()
        self.register_buffer("adjacency", adjacency)
        self.embedding = nn.Embedding(N_ITEMS, emb)
        self.item_conv = ItemConv(layers, emb)

    def forward(self, sessions):               # sessions: (B, L) item ids
        items = self.item_conv(self.adjacency, self.embedding.weight)
        sess = items[sessions].mean(1)
        return sess @ items.t()                 # scores over all items


def make_adjacency(seed=0):
    g = torch.Generator().manual_seed(seed)
    a = (torch.rand(N_ITEMS, N_ITEMS, generator=g) < 0.08).float()
    a = a + a.t() + torch.eye(N_ITEMS)
    return a / a.sum(1, keepdim=True)


def make_target():
    torch.manual_seed(0)
    sessions = torch.randint(0, N_ITEMS, (32, 5))
    nxt = (sessions[:, -1] * 7 + 3) % N_ITEMS
    return {
        "model": COTRECLite(make_adjacency()),
        "batch": (sessions, nxt),
        "loss_fn": lambda scores, y: F.cross_entropy(scores, y),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
    }
