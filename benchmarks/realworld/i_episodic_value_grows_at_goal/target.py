"""TD(0) state-value regression on a 6-state corridor; transitions recorded from episodes, reward -1 per step.

inputs = (state one-hot, next-state one-hot); targets = (reward, done). At the end of an episode the
environment resets, so the recorded next state of the last step is the start state of the next episode.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_STATES, GAMMA = 6, 0.98


class ValueNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(N_STATES, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, s, s_next):
        return self.net(s).squeeze(-1), self.net(s_next).squeeze(-1)


def td_loss(out, targets):
    v, v_next = out
    reward, done = targets
    target = reward + GAMMA * v_next.detach()
    return F.mse_loss(v, target)


def _transitions(n_episodes, seed):
    g = torch.Generator().manual_seed(seed)
    s, s2, r, d = [], [], [], []
    for _ in range(n_episodes):
        pos = int(torch.randint(0, N_STATES, (1,), generator=g))
        while True:
            nxt = pos + 1
            done = nxt == N_STATES
            s.append(pos)
            s2.append(0 if done else nxt)  # the env auto-resets: the next observation is the new start
            r.append(-1.0)
            d.append(float(done))
            if done:
                break
            pos = nxt
    eye = torch.eye(N_STATES)
    return (eye[torch.tensor(s)], eye[torch.tensor(s2)]), (torch.tensor(r), torch.tensor(d))


def make_target():
    torch.manual_seed(0)
    (s, s2), (r, d) = _transitions(200, 1)
    return {
        "model": ValueNet(),
        "batch": ((s[:64], s2[:64]), (r[:64], d[:64])),
        "loss_fn": td_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": ((s, s2), (r, d)),
    }
