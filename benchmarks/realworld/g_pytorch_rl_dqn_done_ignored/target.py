"""Q-network on a 5-cell corridor (one-hot states, actions left/right, +1 on reaching the goal, which ends
the episode and resets to cell 0). The loss is a one-step TD regression on the whole transition table."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_CELLS = 5
GAMMA = 0.9


class QNet(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(N_CELLS, hidden), nn.ReLU(), nn.Linear(hidden, 2))

    def forward(self, states, next_states):
        return self.body(states), self.body(next_states)


def transitions():
    """Every (cell, action) pair once: states, actions, rewards, next states, done flags."""
    s, a, r, s2, d = [], [], [], [], []
    for cell in range(N_CELLS):
        for act in (0, 1):
            nxt = max(cell - 1, 0) if act == 0 else cell + 1
            done = nxt == N_CELLS
            s.append(cell)
            a.append(act)
            r.append(1.0 if done else 0.0)
            s2.append(0 if done else nxt)  # the env auto-resets: the stored next observation is the start cell
            d.append(float(done))
    eye = torch.eye(N_CELLS)
    return eye[s], torch.tensor(a), torch.tensor(r), eye[s2], torch.tensor(d)


def td_loss(out, targets):
    q, q_next = out
    actions, rewards, dones = targets
    with torch.no_grad():
        target = rewards + GAMMA * q_next.max(1).values
    return F.mse_loss(q.gather(1, actions.view(-1, 1)).squeeze(1), target)


def make_target():
    torch.manual_seed(0)
    s, a, r, s2, d = transitions()
    return {
        "model": QNet(),
        "batch": ((s, s2), (a, r, d)),
        "loss_fn": td_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
        "train_data": [((s, s2), (a, r, d))],
    }
