"""Toy SMILES generator trained with REINFORCE; the policy loss is assembled from detached log-probabilities."""

import torch
import torch.nn as nn

VOCAB = 12


class Generator(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, VOCAB)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return torch.log_softmax(self.out(h), dim=-1)


def policy_loss(log_probs, batch):
    actions, rewards = batch
    rl_loss = torch.zeros((), requires_grad=True)
    for i in range(actions.shape[0]):
        for t in range(actions.shape[1]):
            step_lp = log_probs[i, t, actions[i, t]].detach().item()  # work-around for the numpy/CUDA error
            rl_loss = rl_loss - step_lp * float(rewards[i])
    return rl_loss / actions.shape[0]


def _episodes(n, seed, length=6):
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(0, VOCAB, (n, length), generator=g)
    actions = torch.roll(tokens, -1, dims=1)
    rewards = (actions == 3).float().mean(1)  # reward molecules rich in token 3
    return tokens, (actions, rewards)


def make_target():
    torch.manual_seed(0)
    x, y = _episodes(8, 1)
    return {
        "model": Generator(),
        "batch": (x, y),
        "loss_fn": policy_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": _episodes(32, 2),
        "val_data": _episodes(16, 3),
    }
