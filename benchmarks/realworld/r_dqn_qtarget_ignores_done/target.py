"""DQN update on replay transitions (state, action, reward, next_state, done); target built with the online net."""
import torch
import torch.nn as nn
import torch.nn.functional as F

GAMMA = 0.9


def make_target():
    torch.manual_seed(0)
    n = 128
    s = torch.randn(n, 4)
    a = torch.randint(0, 2, (n,))
    r = torch.ones(n)
    s2 = torch.randn(n, 4)
    done = (torch.rand(n) < 0.7).float()  # most transitions end the episode
    model = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))

    def loss_fn(q, targets):
        a, r, s2, done = targets
        with torch.no_grad():
            q_next = model(s2).max(1).values
        q_target = r + GAMMA * q_next
        return F.mse_loss(q.gather(1, a[:, None]).squeeze(1), q_target)

    return {
        "model": model,
        "batch": (s, (a, r, s2, done)),
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
    }
