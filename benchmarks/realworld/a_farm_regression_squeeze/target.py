"""Text-regression style model: pooled document embedding -> regression head whose logits get squeezed."""
import torch
import torch.nn as nn


class RegressionHead(nn.Module):
    def __init__(self, dims=(24, 1)):
        super().__init__()
        self.ff = nn.Sequential(nn.Linear(dims[0], 32), nn.ReLU(), nn.Linear(32, dims[1]))

    def forward(self, pooled):
        logits = self.ff(pooled)
        return logits.squeeze()                      # (batch,) while labels stay (batch, 1)


class DocRegressor(nn.Module):
    def __init__(self, vocab=100, dim=24):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.head = RegressionHead((dim, 1))

    def forward(self, token_ids):
        return self.head(self.emb(token_ids))


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(0, 100, (n, 20), generator=g)
    score = (tokens < 30).float().sum(1, keepdim=True) * 0.8   # label in [0, 16], shape (n, 1)
    return tokens, score


def make_target():
    torch.manual_seed(0)
    model = DocRegressor()
    x, y = _data(32, 1)
    mse = nn.MSELoss()
    return {
        "model": model,
        "batch": ((x,), y),
        "loss_fn": lambda pred, labels: mse(pred, labels),
        "train_data": _data(256, 2),
        "val_data": _data(64, 3),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
    }
