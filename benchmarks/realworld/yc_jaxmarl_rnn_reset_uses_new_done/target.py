"""Recurrent Q-learning agent (QMIX/IQL style, one agent shown) trained on time-major trajectory batches.
Each stored timestep is (obs, action, reward, done) as written by the rollout loop: the observation the
agent acted on and the done flag returned by env.step for that action."""
import torch
import torch.nn as nn
import torch.nn.functional as F

OBS_DIM, N_ACTIONS, HIDDEN = 6, 4, 32
GAMMA = 0.99


class ScannedRNN(nn.Module):
    def __init__(self, in_dim, hidden):
        super().__init__()
        self.cell = nn.GRUCell(in_dim, hidden)
        self.hidden = hidden

    def forward(self, ins, resets, h0=None):
        # ins: (T, B, in_dim), resets: (T, B) -- hidden state is zeroed wherever resets is true
        T, B, _ = ins.shape
        h = ins.new_zeros(B, self.hidden) if h0 is None else h0
        outs = []
        for t in range(T):
            h = torch.where(resets[t][:, None], torch.zeros_like(h), h)
            h = self.cell(ins[t], h)
            outs.append(h)
        return torch.stack(outs)


class RNNQNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(OBS_DIM, HIDDEN)
        self.rnn = ScannedRNN(HIDDEN, HIDDEN)
        self.q = nn.Linear(HIDDEN, N_ACTIONS)

    def forward(self, obs, dones):
        x = F.relu(self.embed(obs))
        h = self.rnn(x, dones)
        return self.q(h)                       # (T, B, N_ACTIONS)


def td_loss(q_vals, targets):
    actions, rewards, dones = targets
    chosen = q_vals[:-1].gather(-1, actions[:-1, :, None]).squeeze(-1)
    target = rewards[:-1] + (1 - dones[:-1].float()) * GAMMA * q_vals[1:].max(-1).values.detach()
    return F.mse_loss(chosen, target)


def collect(T=24, B=16, seed=0):
    """Rollout buffer: episodes of random length run back to back in each env."""
    g = torch.Generator().manual_seed(seed)
    obs = torch.randn(T, B, OBS_DIM, generator=g)
    actions = torch.randint(0, N_ACTIONS, (T, B), generator=g)
    rewards = torch.randn(T, B, generator=g) * 0.1
    dones = torch.zeros(T, B, dtype=torch.bool)
    for b in range(B):
        t = int(torch.randint(3, 9, (1,), generator=g))
        while t < T:
            dones[t, b] = True
            rewards[t, b] += 1.0
            t += int(torch.randint(4, 10, (1,), generator=g))
    return (obs, dones), (actions, rewards, dones)


def make_target():
    torch.manual_seed(0)
    inputs, targets = collect()
    return {
        "model": RNNQNetwork(),
        "batch": (inputs, targets),
        "loss_fn": td_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=5e-4),
        "batch_axis": 1,
    }
