"""Critic trained on GAE returns from a fixed rollout; the GAE loop reads the done flag of step t+1 instead of t."""
import torch
import torch.nn as nn

GAMMA, LAM = 0.99, 0.95


def rollout():
    """Episodes of length 5 in a 6-state chain: states 0..4, failure at the end (reward -1). Observations are one-hot."""
    states, rewards, dones = [], [], []
    for _ in range(12):
        for t in range(5):
            states.append(t)
            rewards.append(-1.0 if t == 4 else 0.0)
            dones.append(1.0 if t == 4 else 0.0)
    obs = nn.functional.one_hot(torch.tensor(states), 6).float()
    last_obs = nn.functional.one_hot(torch.tensor([0]), 6).float()  # state after the final reset
    return obs, torch.tensor(rewards), torch.tensor(dones), last_obs


def compute_gae(values, next_value, rewards, dones, gamma=GAMMA, lam=LAM):
    T = len(rewards)
    adv = torch.zeros(T)
    last = 0.0
    for t in reversed(range(T)):
        if t == T - 1:
            nonterminal = 1.0 - dones[t]
            nv = next_value
        else:
            nonterminal = 1.0 - dones[t + 1]  # done-ness of the *next* transition
            nv = values[t + 1]
        delta = rewards[t] + gamma * nv * nonterminal - values[t]
        last = delta + gamma * lam * nonterminal * last
        adv[t] = last
    return adv


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(6, 1)

    def forward(self, obs):
        return self.net(obs).squeeze(-1)


def _returns(model, obs, rewards, dones, last_obs):
    with torch.no_grad():
        values = model(obs)
        next_value = model(last_obs)[0]
    return compute_gae(values, next_value, rewards, dones) + values


def make_target():
    torch.manual_seed(0)
    obs, rewards, dones, last_obs = rollout()
    model = Critic()
    with torch.no_grad():  # the critic from the previous iteration values a fresh start highly
        model.net.weight.zero_()
        model.net.bias.zero_()
        model.net.weight[0, 0] = 2.0

    def loss_fn(v, target):
        rewards_, dones_, last_obs_ = target
        return ((v - _returns(model, obs, rewards_, dones_, last_obs_)) ** 2).mean()

    return {
        "model": model,
        "batch": (obs, (rewards, dones, last_obs)),
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
    }
