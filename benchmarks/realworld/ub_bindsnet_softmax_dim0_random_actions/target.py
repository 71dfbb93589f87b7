"""Policy for a 4-action Atari-style game: output-layer spike counts -> action probabilities (softmax selection).

Observations are small feature vectors; the output layer is rate coded: counts of spikes over a short window.
"""
import torch
import torch.nn as nn

N_OBS, N_ACTIONS, WINDOW = 6, 4, 20


class RatePolicy(nn.Module):
    def __init__(self, n_obs=N_OBS, n_hidden=32, n_actions=N_ACTIONS, window=WINDOW):
        super().__init__()
        self.window = window
        self.inp = nn.Linear(n_obs, n_hidden)
        self.out = nn.Linear(n_hidden, n_actions)

    def spike_counts(self, obs):
        # expected spike count of each output neuron over the simulation window (rate code)
        rate = torch.sigmoid(self.out(torch.relu(self.inp(obs))))
        return self.window * rate                      # (batch, n_actions)

    def forward(self, obs):
        spikes = self.spike_counts(obs)
        probabilities = torch.softmax(spikes, dim=0)
        return probabilities


def select_action(policy, obs):
    """obs: (1, n_obs) for the single running environment."""
    probs = policy(obs)
    return torch.multinomial(probs, 1).item(), probs


def reinforce_loss(probs, targets):
    actions, returns = targets
    picked = probs[torch.arange(len(actions)), actions]
    return -(torch.log(picked + 1e-12) * returns).mean()


def train_step(model, batch, optimizer, loss_fn):
    # episode update: re-evaluate each visited state the way it was acted on (one state at a time)
    states, (actions, returns) = batch
    model.train()
    optimizer.zero_grad()
    probs = torch.cat([model(states[i:i + 1]) for i in range(len(states))])
    loss = loss_fn(probs, (actions, returns))
    loss.backward()
    optimizer.step()
    return loss.item()


def _episode(n, seed):
    g = torch.Generator().manual_seed(seed)
    states = torch.randn(n, N_OBS, generator=g)
    best = states[:, :N_ACTIONS].argmax(1)           # the action that pays off in each state
    actions = torch.randint(0, N_ACTIONS, (n,), generator=g)
    returns = (actions == best).float() - 0.25
    return states, (actions, returns)


def make_target():
    torch.manual_seed(0)
    return {
        "model": RatePolicy(),
        "batch": _episode(16, 1),
        "loss_fn": reinforce_loss,
        "train_step": train_step,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
        "train_data": [_episode(16, s) for s in range(2, 10)],
    }
