"""Recurrent actor-critic (LSTM, 2 layers) re-evaluated on rollout-buffer sequences, as in RecurrentPPO.

The buffer stores, for every step, the LSTM (h, c) the policy had *before* that step, shaped
(n_layers, dim) per step. For training, each sequence is re-run from the states stored at its first step.
"""

import torch
import torch.nn as nn

OBS, HID, LAYERS, ACT = 6, 16, 2, 3


class RecurrentPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(OBS, HID, num_layers=LAYERS)  # sequence-first
        self.pi = nn.Linear(HID, ACT)
        nn.init.normal_(self.pi.weight, std=1.0)
        self.vf = nn.Linear(HID, 1)

    def forward(self, obs_seq, h_start, c_start):
        """obs_seq: (T, n_seq, OBS); h_start/c_start: stored states at sequence starts, (n_seq, n_layers, HID)."""
        n_seq = obs_seq.shape[1]
        # (n_seq, n_layers, dim) -> (n_layers, n_seq, dim) for nn.LSTM
        h0 = h_start.reshape(LAYERS, n_seq, -1)
        c0 = c_start.reshape(LAYERS, n_seq, -1)
        out, _ = self.lstm(obs_seq, (h0, c0))
        return torch.log_softmax(self.pi(out), -1), self.vf(out).squeeze(-1)


def collect(policy, n_env=8, T=12, warmup=5, seed=0):
    """Roll the policy out step by step, storing (h, c) before each step; return one training minibatch."""
    g = torch.Generator().manual_seed(seed)
    h = torch.zeros(LAYERS, n_env, HID)
    c = torch.zeros(LAYERS, n_env, HID)
    obs_all, hs, cs, logps, acts = [], [], [], [], []
    with torch.no_grad():
        for t in range(warmup + T):
            obs = 3 * torch.randn(n_env, OBS, generator=g)
            hs.append(h.transpose(0, 1).clone())  # buffer layout: (n_env, n_layers, dim)
            cs.append(c.transpose(0, 1).clone())
            out, (h, c) = policy.lstm(obs.unsqueeze(0), (h, c))
            logp = torch.log_softmax(policy.pi(out[0]), -1)
            a = torch.multinomial(logp.exp(), 1, generator=g).squeeze(-1)
            obs_all.append(obs)
            logps.append(logp.gather(-1, a[:, None]).squeeze(-1))
            acts.append(a)
    obs_seq = torch.stack(obs_all[warmup:])
    old_logp = torch.stack(logps[warmup:])
    actions = torch.stack(acts[warmup:])
    return (obs_seq, hs[warmup], cs[warmup]), (actions, old_logp)


def ppo_loss(out, targets, clip=0.2):
    logp_all, _ = out
    actions, old_logp = targets
    logp = logp_all.gather(-1, actions[..., None]).squeeze(-1)
    ratio = (logp - old_logp).exp()
    adv = torch.ones_like(ratio)
    return -torch.min(ratio * adv, ratio.clamp(1 - clip, 1 + clip) * adv).mean()


def make_target():
    torch.manual_seed(0)
    policy = RecurrentPolicy()
    batch = collect(policy)
    return {
        "model": policy,
        "batch": batch,
        "loss_fn": ppo_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-4),
        "batch_axis": (1, 0, 0),
    }
