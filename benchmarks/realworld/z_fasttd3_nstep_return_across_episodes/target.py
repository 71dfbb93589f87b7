"""n-step targets from a flat replay buffer: rewards and bootstrap run on past a done flag into the next episode."""

import torch
import torch.nn as nn

S, L, N, GAMMA = 5, 5, 3, 0.9  # states 0..4 per episode, reward 1 on the last step, then terminal


def rollout(n_episodes=40):
    s, r, d = [], [], []
    for _ in range(n_episodes):
        for t in range(L):
            s.append(t)
            r.append(1.0 if t == L - 1 else 0.0)
            d.append(1.0 if t == L - 1 else 0.0)
    return torch.tensor(s), torch.tensor(r), torch.tensor(d)


def nstep_targets(s, r, d, v_next, mask_dones=False):
    T = len(s)
    out = torch.zeros(T)
    for i in range(T - N):
        ret, disc, alive = 0.0, 1.0, 1.0
        for k in range(N):
            ret = ret + alive * disc * r[i + k]
            disc *= GAMMA
            if mask_dones:
                alive = alive * (1 - d[i + k])
        out[i] = ret + alive * disc * v_next[i + N]
    return out


class VNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(S, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, s):
        return self.net(nn.functional.one_hot(s, S).float()).squeeze(-1)


def make_target():
    torch.manual_seed(0)
    s, r, d = rollout()
    return {"model": VNet(), "batch": (s, (s, r, d)),
            "loss_fn": lambda v, b: ((v[:-N] - nstep_targets(*b, v.detach())[:-N]) ** 2).mean(),
            "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2)}
