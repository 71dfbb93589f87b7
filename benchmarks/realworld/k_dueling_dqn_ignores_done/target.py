"""Q-learning on a CartPole-like corridor: each step the agent either keeps balancing (reward 1, move on;
the episode ends after LENGTH steps) or lets the pole fall (reward 1, episode over). The replay buffer
stores the environment's next observation, which after a terminal step is the reset observation."""

import torch
import torch.nn as nn
import torch.nn.functional as F

LENGTH, GAMMA = 20, 0.99
KEEP, FALL = 0, 1


def obs(pos):
    return F.one_hot(torch.as_tensor(pos), LENGTH).float()


def replay_buffer():
    s, a, r, s2, d = [], [], [], [], []
    for pos in range(LENGTH):
        # keep balancing
        last = pos + 1 == LENGTH
        s.append(pos); a.append(KEEP); r.append(1.0); s2.append(0 if last else pos + 1); d.append(float(last))
        # let it fall
        s.append(pos); a.append(FALL); r.append(1.0); s2.append(0); d.append(1.0)
    return obs(torch.tensor(s)), (torch.tensor(a), torch.tensor(r), obs(torch.tensor(s2)), torch.tensor(d))


class DuelingQ(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(LENGTH, hidden), nn.ReLU())
        self.value = nn.Linear(hidden, 1)
        self.adv = nn.Linear(hidden, 2)

    def forward(self, s):
        h = self.body(s)
        a = self.adv(h)
        return self.value(h) + a - a.mean(1, keepdim=True)


def make_target():
    torch.manual_seed(0)
    model = DuelingQ()

    def td_loss(q, targets):
        actions, rewards, next_obs, dones = targets
        with torch.no_grad():
            next_q = model(next_obs).max(1).values
            expected = rewards + GAMMA * next_q
        return F.mse_loss(q.gather(1, actions.unsqueeze(1)).squeeze(1), expected)

    return {
        "model": model,
        "batch": replay_buffer(),
        "loss_fn": td_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
    }
