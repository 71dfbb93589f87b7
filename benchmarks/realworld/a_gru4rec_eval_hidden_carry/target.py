"""Session-based recommender (GRU4Rec-like): next-item scores from a GRU over item embeddings."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GRU4Rec(nn.Module):
    def __init__(self, n_items=100, hidden=32):
        super().__init__()
        self.hidden_size = hidden
        self.emb = nn.Embedding(n_items, hidden)
        self.gru = nn.GRUCell(hidden, hidden)
        self.out = nn.Linear(hidden, n_items)

    def init_hidden(self, batch_size):
        return torch.zeros(batch_size, self.hidden_size)

    def forward(self, item, hidden=None):
        if hidden is None:
            hidden = self.init_hidden(item.size(0))
        h = self.gru(self.emb(item), hidden)
        self.last_hidden = h.detach()
        return self.out(h)


class Evaluation:
    """Mirrors the evaluation helper: one hidden state for the whole pass over the loader."""

    def __init__(self, batch_size):
        self.hidden = None
        self.batch_size = batch_size

    def __call__(self, model, batch):
        (items,), _ = batch
        model.eval()
        with torch.no_grad():
            if self.hidden is None:
                self.hidden = model.init_hidden(self.batch_size)
            logits = model(items, self.hidden)
            self.hidden = model.last_hidden
        return logits


def recall_at_20(logits, target):
    top = logits.topk(20, dim=-1).indices
    return (top == target.unsqueeze(1)).any(1).float().mean().item()


def make_target():
    torch.manual_seed(0)
    items = torch.randint(0, 100, (32,))
    nxt = (items * 7 + 3) % 100
    return {
        "model": GRU4Rec(),
        "batch": ((items,), nxt),
        "loss_fn": lambda logits, target: F.cross_entropy(logits, target),
        "eval_fn": Evaluation(batch_size=32),
        "metric_fn": recall_at_20,
    }
