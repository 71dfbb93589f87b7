"""PPO-style actor-critic update on a rollout buffer that holds several short episodes back to back.

GAE is computed over the whole buffer as if it were one episode (the done flags are collected but not used).
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

GAMMA, LAM = 0.99, 0.95
OBS = 4


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(OBS, 32), nn.Tanh())
        self.pi = nn.Linear(32, 2)
        self.v = nn.Linear(32, 1)

    def forward(self, obs):
        h = self.body(obs)
        return self.pi(h), self.v(h).squeeze(-1)


def compute_gae(rewards, values):
    advantages = []
    gae, next_value = 0.0, 0.0
    for r, v in zip(reversed(rewards.tolist()), reversed(values.tolist())):
        delta = r + GAMMA * next_value - v
        gae = delta + GAMMA * LAM * gae
        advantages.insert(0, gae)
        next_value = v
    return torch.tensor(advantages)


def rollout(seed, n_episodes=6):
    """Episodes of a pole-balancing-like task: +1 per step until the episode ends (lengths vary)."""
    g = torch.Generator().manual_seed(seed)
    obs, acts, rews, dones, old_logp = [], [], [], [], []
    for _ in range(n_episodes):
        length = int(torch.randint(8, 20, (1,), generator=g))
        s = 0.05 * torch.randn(OBS, generator=g)
        for t in range(length):
            obs.append(s.clone())
            acts.append(int(torch.randint(0, 2, (1,), generator=g)))
            rews.append(1.0)
            dones.append(1.0 if t == length - 1 else 0.0)
            old_logp.append(-0.6931)
            s = s + 0.1 * torch.randn(OBS, generator=g) + 0.05 * t
    return (
        torch.stack(obs),
        {
            "actions": torch.tensor(acts),
            "rewards": torch.tensor(rews),
            "dones": torch.tensor(dones),
            "old_logp": torch.tensor(old_logp),
        },
    )


def loss_fn(out, batch):
    logits, values = out
    adv = compute_gae(batch["rewards"], values.detach())
    returns = adv + values.detach()
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    logp = F.log_softmax(logits, -1).gather(1, batch["actions"][:, None]).squeeze(1)
    ratio = (logp - batch["old_logp"]).exp()
    pg = -torch.min(ratio * adv, ratio.clamp(0.8, 1.2) * adv).mean()
    return pg + 0.5 * F.mse_loss(values, returns)


def make_target():
    torch.manual_seed(0)
    return {
        "model": ActorCritic(),
        "batch": rollout(1),
        "loss_fn": loss_fn,
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-4),
        "train_data": [rollout(s) for s in range(2, 10)],
    }
