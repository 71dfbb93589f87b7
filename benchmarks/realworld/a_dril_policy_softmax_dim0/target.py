"""REINFORCE policy network for CartPole-like states (4 features, 2 actions)."""
import torch
import torch.nn as nn


def make_policy():
    return nn.Sequential(
        nn.Linear(4, 150),
        nn.LeakyReLU(),
        nn.Linear(150, 2),
        nn.Softmax(dim=0),
    )


def discounted(rewards, gamma=0.99):
    out = torch.pow(gamma, torch.arange(len(rewards)).float()) * rewards
    return out / out.max()


def reinforce_loss(action_probs, batch_targets):
    actions, returns = batch_targets[:, 0].long(), batch_targets[:, 1]
    chosen = action_probs.gather(1, actions.view(-1, 1)).squeeze(1)
    return -torch.sum(returns * torch.log(chosen))


def make_target():
    torch.manual_seed(0)
    episode_len = 20
    states = torch.randn(episode_len, 4) * 0.1
    actions = torch.randint(0, 2, (episode_len,)).float()
    returns = discounted(torch.arange(episode_len, 0, -1).float())
    return {
        "model": make_policy(),
        "batch": ((states,), torch.stack([actions, returns], dim=1)),
        "loss_fn": reinforce_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=9e-3),
    }
