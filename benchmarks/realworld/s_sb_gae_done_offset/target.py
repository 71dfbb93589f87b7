"""Value function trained on GAE returns from a rollout of fixed-length episodes (reward 1 per step).

dones[t] == 1 marks the LAST step of an episode; the GAE loop masks with the flag of step t+1.
"""
import torch
from torch import nn

L, EPISODES, GAMMA, LAM = 5, 8, 0.99, 0.95
T = L * EPISODES


def rollout():
    k = torch.arange(T + 1) % L  # step index inside the episode (obs T is the start of a new episode)
    obs = nn.functional.one_hot(k, L).float()
    rewards = torch.ones(T)
    dones = (torch.arange(T) % L == L - 1).float()  # 1 on the last step of each episode
    return obs, rewards, dones


def gae_returns(values, rewards, dones):
    v = values.detach().squeeze(-1)
    new = torch.cat([dones, torch.zeros(1)])
    adv = torch.zeros(T)
    last = 0.0
    for t in reversed(range(T)):
        nonterminal = 1.0 - new[t + 1]
        delta = rewards[t] + GAMMA * v[t + 1] * nonterminal - v[t]
        last = delta + GAMMA * LAM * nonterminal * last
        adv[t] = last
    return adv + v[:T]


def value_loss(values, targets):
    rewards, dones = targets
    ret = gae_returns(values, rewards, dones)
    return ((values[:T].squeeze(-1) - ret) ** 2).mean()


def make_target():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(L, 32), nn.Tanh(), nn.Linear(32, 1))
    obs, rewards, dones = rollout()
    return {
        "model": model,
        "batch": (obs, (rewards, dones)),
        "loss_fn": value_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
    }
