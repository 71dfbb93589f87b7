import torch
from torch import nn

N_ITEMS = 60
SEQ_LEN = 8


class GRU4Rec(nn.Module):
    def __init__(self, n_items=N_ITEMS, emb=48, hidden=128):
        super().__init__()
        self.item_emb = nn.Embedding(n_items, emb)
        self.gru = nn.GRU(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, n_items)

    def forward(self, sessions):
        h, _ = self.gru(self.item_emb(sessions))
        return self.out(h[:, -1])


def _sessions(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randint(0, N_ITEMS, (n, SEQ_LEN), generator=g)
    nxt = (x[:, -1] + 1) % N_ITEMS
    noise = torch.rand(n, generator=g) < 0.6
    nxt = torch.where(noise, torch.randint(0, N_ITEMS, (n,), generator=g), nxt)
    return x, nxt


def make_target():
    torch.manual_seed(0)
    train_x, train_y = _sessions(64, seed=1)
    val_x, val_y = _sessions(64, seed=2)
    return {
        "model": GRU4Rec(),
        "batch": (train_x, train_y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=5e-3),
        "train_data": (train_x, train_y),
        "val_data": (val_x, val_y),
    }
