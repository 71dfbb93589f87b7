"""Recurrent student policy for a legged-robot task (rsl_rl style): an LSTM memory stepped once per env step
across many parallel envs, hidden states reset for the envs that report done, distilled from teacher actions."""
import torch
import torch.nn as nn

NUM_ENVS, OBS_DIM, ACT_DIM, HIDDEN = 8, 12, 4, 32


class Memory(nn.Module):
    def __init__(self, input_size, hidden_size=HIDDEN, num_layers=1):
        super().__init__()
        self.rnn = nn.LSTM(input_size=input_size, hidden_size=hidden_size, num_layers=num_layers)
        self.hidden_states = None

    def forward(self, input):
        # inference mode (collection): use hidden states of last step
        out, self.hidden_states = self.rnn(input.unsqueeze(0), self.hidden_states)
        return out.squeeze(0)

    def reset(self, dones=None):
        # for an LSTM, hidden_states is a tuple (hidden_state, cell_state)
        if self.hidden_states is None:
            return
        self.hidden_states = tuple(h.clone() for h in self.hidden_states)
        for hidden_state in self.hidden_states:
            hidden_state[..., dones, :] = 0.0


class StudentRecurrent(nn.Module):
    def __init__(self):
        super().__init__()
        self.memory_s = Memory(OBS_DIM)
        self.student = nn.Sequential(nn.Linear(HIDDEN, 64), nn.ELU(), nn.Linear(64, ACT_DIM))

    def forward(self, obs, dones):
        # obs: (T, num_envs, OBS_DIM), dones: (T, num_envs) as returned by env.step (0/1)
        self.memory_s.hidden_states = None
        actions = []
        for t in range(obs.shape[0]):
            actions.append(self.student(self.memory_s(obs[t])))
            self.memory_s.reset(dones[t])
        return torch.stack(actions)


def rollout(T=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    obs = torch.randn(T, NUM_ENVS, OBS_DIM, generator=g)
    dones = (torch.rand(T, NUM_ENVS, generator=g) < 0.12).long()
    teacher_actions = torch.tanh(obs[..., :ACT_DIM] + 0.5 * torch.cumsum(obs[..., ACT_DIM:2 * ACT_DIM], 0) / 4)
    return (obs, dones), teacher_actions


def make_target():
    torch.manual_seed(0)
    inputs, teacher_actions = rollout()
    return {
        "model": StudentRecurrent(),
        "batch": (inputs, teacher_actions),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "batch_axis": 1,
    }
