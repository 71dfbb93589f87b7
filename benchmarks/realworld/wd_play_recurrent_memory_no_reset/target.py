"""Recurrent actor (LSTM memory + MLP head) and the evaluation ("play") loop used to roll it out."""
import torch
import torch.nn as nn
import torch.nn.functional as F

OBS, ACT, HID, T_EP, N_ENVS = 8, 2, 32, 12, 4


class Memory(nn.Module):
    """LSTM whose hidden state persists between calls during inference, as in on-policy RL runners."""

    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.rnn = nn.LSTM(input_size, hidden_size)
        self.hidden_states = None

    def forward(self, x):                      # x: (T, num_envs, obs)
        out, hidden = self.rnn(x, self.hidden_states)
        self.hidden_states = tuple(h.detach() for h in hidden)
        return out

    def reset(self, dones=None):
        if self.hidden_states is None:
            return
        if dones is None:
            self.hidden_states = None
            return
        for h in self.hidden_states:
            h[:, dones.bool(), :] = 0.0


class ActorRecurrent(nn.Module):
    def __init__(self):
        super().__init__()
        self.memory_a = Memory(OBS, HID)
        self.actor = nn.Sequential(nn.Linear(HID, 64), nn.ELU(), nn.Linear(64, ACT))

    def forward(self, obs):
        return self.actor(self.memory_a(obs))

    def reset(self, dones=None):
        self.memory_a.reset(dones)


def train_step(model, batch, optimizer, loss_fn):
    """Behaviour-cloning update on whole episodes; memory starts fresh for every episode batch."""
    obs, expert_actions = batch
    model.train()
    model.reset()
    optimizer.zero_grad()
    loss = loss_fn(model(obs), expert_actions)
    loss.backward()
    optimizer.step()
    model.reset()
    return loss.item()


def play(model, batch):
    """Roll the policy through one episode of observations, one env step at a time (deterministic actions)."""
    obs, _ = batch
    model.eval()
    actions = []
    with torch.no_grad():
        for t in range(obs.size(0)):
            actions.append(model(obs[t : t + 1]))
            dones = torch.zeros(obs.size(1), dtype=torch.bool)
            if t == obs.size(0) - 1:
                dones[:] = True               # episode time-out for every env
    return torch.cat(actions)


def make_episodes(n, seed):
    g = torch.Generator().manual_seed(seed)
    eps = []
    for _ in range(n):
        obs = torch.randn(T_EP, N_ENVS, OBS, generator=g).cumsum(0) * 0.3
        expert = torch.tanh(obs[..., :ACT] - obs[..., ACT:2 * ACT])
        eps.append((obs, expert))
    return eps


def make_target():
    torch.manual_seed(0)
    eps = make_episodes(9, 1)
    return {
        "model": ActorRecurrent(),
        "batch": eps[0],
        "loss_fn": lambda pred, target: F.mse_loss(pred, target),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "train_step": train_step,
        "eval_fn": play,
        "batch_axis": 1,
        "train_data": eps[1:7],
        "val_data": eps[7:],
    }
