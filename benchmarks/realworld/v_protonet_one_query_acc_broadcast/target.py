"""Prototypical network episode: N_WAY classes, N_SUPPORT support + N_QUERY query examples per class.

Inputs are ordered class by class (support examples first, then queries). metric_fn is the episode accuracy
reported during training and testing.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_WAY, N_SUPPORT, N_QUERY, DIM = 5, 5, 1, 32


class Embed(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(DIM, 64), nn.ReLU(), nn.Linear(64, 32))

    def forward(self, x):
        return self.net(x)


def _log_p_y(emb):
    emb = emb.view(N_WAY, N_SUPPORT + N_QUERY, -1)
    protos = emb[:, :N_SUPPORT].mean(1)  # (N_WAY, E)
    queries = emb[:, N_SUPPORT:].reshape(N_WAY * N_QUERY, -1)
    dists = torch.cdist(queries, protos) ** 2
    return F.log_softmax(-dists, dim=1).view(N_WAY, N_QUERY, -1)


def _target_inds():
    return torch.arange(N_WAY).view(N_WAY, 1, 1).expand(N_WAY, N_QUERY, 1).long()


def proto_loss(emb, _labels):
    return -_log_p_y(emb).gather(2, _target_inds()).squeeze().view(-1).mean()


def proto_acc(emb, _labels):
    _, y_hat = _log_p_y(emb).max(2)
    return y_hat.eq(_target_inds().squeeze()).float().mean().item()


def episode(seed):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(N_WAY, DIM, generator=g) * 1.5
    x = centers.repeat_interleave(N_SUPPORT + N_QUERY, 0) + torch.randn(N_WAY * (N_SUPPORT + N_QUERY), DIM, generator=g)
    y = torch.arange(N_WAY).repeat_interleave(N_SUPPORT + N_QUERY)
    return x, y


def make_target():
    torch.manual_seed(0)
    return {
        "model": Embed(),
        "batch": episode(1),
        "loss_fn": proto_loss,
        "metric_fn": proto_acc,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": [episode(10 + i) for i in range(50)],
        "val_data": [episode(1000 + i) for i in range(20)],
    }
