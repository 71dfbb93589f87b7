"""Critic of a PPO learner on a 4-step chain: obs = one-hot position, reward 1 on the last (terminal) step of each
episode; episodes are concatenated in one rollout segment. The value loss regresses onto GAE returns."""

import torch
import torch.nn as nn

GAMMA, LAM, EP_LEN, N_EP = 0.9, 0.95, 4, 6


def gae_returns(values, rewards, dones, last_value=0.0):
    T = values.shape[0]
    adv = torch.zeros(T)
    last = 0.0
    for t in reversed(range(T)):
        next_v = values[t + 1] if t + 1 < T else torch.tensor(last_value)
        not_done = 1.0 - (dones[t + 1] if t + 1 < T else torch.tensor(0.0))
        delta = rewards[t] + GAMMA * next_v * not_done - values[t]
        last = delta + GAMMA * LAM * not_done * last
        adv[t] = last
    return adv + values


def value_loss(output, targets):
    rewards, dones = targets
    values = output.squeeze(-1)
    returns = gae_returns(values.detach(), rewards, dones)
    return ((values - returns) ** 2).mean()


def rollout():
    pos = torch.arange(EP_LEN).repeat(N_EP)
    obs = torch.nn.functional.one_hot(pos, EP_LEN).float()
    rewards = (pos == EP_LEN - 1).float()
    dones = (pos == EP_LEN - 1).float()
    return obs, rewards, dones


def make_target():
    torch.manual_seed(0)
    obs, rewards, dones = rollout()
    return {
        "model": nn.Sequential(nn.Linear(EP_LEN, 16), nn.Tanh(), nn.Linear(16, 1)),
        "batch": (obs, (rewards, dones)),
        "loss_fn": value_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=0.03),
    }
