"""Actor-critic PPO update on a rollout that crosses episode boundaries; the GAE accumulator is carried across
'done' (the delta is masked but the running gae is not)."""

import torch
from torch import nn
import torch.nn.functional as F

GAMMA, TAU, CLIP = 0.9, 1.0, 0.2


class ActorCritic(nn.Module):
    def __init__(self, obs=8, n_actions=4):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs, 64), nn.Tanh())
        self.pi = nn.Linear(64, n_actions)
        self.v = nn.Linear(64, 1)

    def forward(self, s):
        h = self.body(s)
        return self.pi(h), self.v(h).squeeze(-1)


def compute_gae(values, next_values, rewards, dones):
    gae = torch.zeros(())
    adv = torch.zeros_like(rewards)
    for t in reversed(range(len(rewards))):
        delta = rewards[t] + GAMMA * next_values[t] * (1 - dones[t]) - values[t]
        gae = gae * GAMMA * TAU + delta
        adv[t] = gae
    return adv


def make_rollout(T=64, seed=0):
    g = torch.Generator().manual_seed(seed)
    states = torch.randn(T + 1, 8, generator=g)
    actions = torch.randint(0, 4, (T,), generator=g)
    rewards = torch.full((T,), 0.1)
    dones = torch.zeros(T)
    for t in (15, 31, 47):  # deaths: big negative reward, then the env restarts
        rewards[t] = -15.0
        dones[t] = 1.0
    for t in (16, 32, 48):  # good start of the next life (running right)
        rewards[t:t + 4] = 5.0
    old_logp = torch.full((T,), -1.386)
    return states, actions, rewards, dones, old_logp


def ppo_loss(output, targets):
    logits, values_all = output
    actions, rewards, dones, old_logp = targets
    values, next_values = values_all[:-1], values_all[1:]
    adv = compute_gae(values.detach(), next_values.detach(), rewards, dones)
    returns = adv + values.detach()
    logp = F.log_softmax(logits[:-1], -1).gather(1, actions[:, None]).squeeze(1)
    ratio = (logp - old_logp).exp()
    actor = -torch.min(ratio * adv, ratio.clamp(1 - CLIP, 1 + CLIP) * adv).mean()
    critic = F.smooth_l1_loss(values, returns)
    return actor + critic


def make_target():
    torch.manual_seed(0)
    states, actions, rewards, dones, old_logp = make_rollout()
    return {
        "model": ActorCritic(),
        "batch": (states, (actions, rewards, dones, old_logp)),
        "loss_fn": ppo_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-4),
    }
