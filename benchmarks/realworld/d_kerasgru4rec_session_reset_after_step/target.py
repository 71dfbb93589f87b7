"""Session-parallel GRU recommender: each row is a session slot whose hidden state persists across batches."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_ITEMS, SLOTS = 30, 16


class SessionGRU(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.emb = nn.Embedding(N_ITEMS, hidden)
        self.cell = nn.GRUCell(hidden, hidden)
        self.out = nn.Linear(hidden, N_ITEMS)
        self.register_buffer("state", torch.zeros(SLOTS, hidden))

    def forward(self, items, session_start):
        h = self.cell(self.emb(items), self.state)
        logits = self.out(h)
        # sessions that start in this batch get a fresh state for the next step
        self.state = torch.where(session_start.unsqueeze(1), torch.zeros_like(h), h).detach()
        return logits


def click_stream(n_steps, seed):
    """Batches of (current item, new-session flag) -> next item; the next item follows from the current one."""
    g = torch.Generator().manual_seed(seed)
    batches = []
    for _ in range(n_steps):
        items = torch.randint(0, N_ITEMS, (SLOTS,), generator=g)
        start = torch.rand(SLOTS, generator=g) < 0.3
        batches.append(((items, start), (items * 7 + 3) % N_ITEMS))
    return batches


def make_target():
    torch.manual_seed(0)
    train = click_stream(200, 1)
    return {
        "model": SessionGRU(),
        "batch": train[0],
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": train,
        "val_data": click_stream(50, 2),
    }
