"""AWR-style critic: value net regressed onto TD(lambda) returns of an episodic chain task.

A rollout buffer holds several episodes back to back (episode length 5, reward 1 per step, the
last step of every episode is terminal and the next row is the start of a new episode).
`states` has one extra row at the end: the observation after the last transition.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

GAMMA = 0.99
LAM = 0.95
EP_LEN = 5
N_EPISODES = 4

# flags of the most recent vectorised env step (all envs still running right after reset)
dones = torch.zeros(N_EPISODES * EP_LEN)


class Critic(nn.Module):
    def __init__(self, obs_dim=EP_LEN, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, s):
        return self.net(s).squeeze(-1)


def collect_rollout():
    pos = torch.arange(N_EPISODES * EP_LEN + 1) % EP_LEN
    states = F.one_hot(pos, EP_LEN).float()
    reward = torch.ones(N_EPISODES * EP_LEN)
    done = (pos[:-1] == EP_LEN - 1).float()
    return states, reward, done


def discount_return(reward, done, value):
    num_step = len(reward)
    discounted_return = torch.zeros(num_step)
    gae = 0.0
    for t in range(num_step - 1, -1, -1):
        if dones[t]:
            delta = reward[t] - value[t]
        else:
            delta = reward[t] + GAMMA * value[t + 1] - value[t]
        gae = delta + GAMMA * LAM * (1 - done[t]) * gae
        discounted_return[t] = gae + value[t]
    return discounted_return


def critic_loss(values, targets):
    reward, done = targets
    ret = discount_return(reward, done, values.detach())
    return F.mse_loss(values[:-1], ret)


def make_target():
    torch.manual_seed(0)
    states, reward, done = collect_rollout()
    return {
        "model": Critic(),
        "batch": (states, (reward, done)),
        "loss_fn": critic_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
    }
