"""Minimal PPO (discrete actions, CartPole-like): the memory holds several episodes collected back to back,
update() computes Monte-Carlo rewards-to-go and runs the clipped surrogate + value loss."""
import torch
import torch.nn as nn
from torch.distributions import Categorical

STATE_DIM, N_ACTIONS = 4, 2
GAMMA, EPS_CLIP = 0.99, 0.2


class ActorCritic(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.action_layer = nn.Sequential(nn.Linear(STATE_DIM, hidden), nn.Tanh(), nn.Linear(hidden, hidden),
                                          nn.Tanh(), nn.Linear(hidden, N_ACTIONS))
        self.value_layer = nn.Sequential(nn.Linear(STATE_DIM, hidden), nn.Tanh(), nn.Linear(hidden, hidden),
                                         nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, state):
        return self.action_layer(state), self.value_layer(state).squeeze(-1)


def monte_carlo_returns(rewards, is_terminals):
    returns = []
    discounted_reward = 0.0
    for reward in reversed(rewards.tolist()):
        discounted_reward = reward + GAMMA * discounted_reward
        returns.insert(0, discounted_reward)
    returns = torch.tensor(returns)
    return (returns - returns.mean()) / (returns.std() + 1e-5)


def ppo_loss(outputs, targets):
    logits, state_values = outputs
    actions, rewards, is_terminals, old_logprobs = targets
    returns = monte_carlo_returns(rewards, is_terminals)
    dist = Categorical(logits=logits)
    logprobs = dist.log_prob(actions)
    ratios = torch.exp(logprobs - old_logprobs)
    advantages = returns - state_values.detach()
    surr1 = ratios * advantages
    surr2 = torch.clamp(ratios, 1 - EPS_CLIP, 1 + EPS_CLIP) * advantages
    return (-torch.min(surr1, surr2) + 0.5 * (state_values - returns) ** 2 - 0.01 * dist.entropy()).mean()


def collect_memory(n_steps=60, seed=0):
    g = torch.Generator().manual_seed(seed)
    states = torch.randn(n_steps, STATE_DIM, generator=g) * 0.1
    actions = torch.randint(0, N_ACTIONS, (n_steps,), generator=g)
    rewards = torch.ones(n_steps)                      # +1 per step survived
    is_terminals = torch.zeros(n_steps, dtype=torch.bool)
    t = 0
    while True:
        t += int(torch.randint(8, 20, (1,), generator=g))
        if t >= n_steps:
            break
        is_terminals[t - 1] = True
        states[t - 1] += 2.0                            # pole has fallen
    is_terminals[-1] = True
    old_logprobs = torch.full((n_steps,), -0.6931)
    return states, (actions, rewards, is_terminals, old_logprobs)


def make_target():
    torch.manual_seed(0)
    states, targets = collect_memory()
    return {
        "model": ActorCritic(),
        "batch": (states, targets),
        "loss_fn": ppo_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=2e-3, betas=(0.9, 0.999)),
    }
