"""Small sparse autoencoder; the training step accumulates over micro-batches and sums mean losses."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_ACCUM = 4
L1_COEFF = 1e-2


class SAE(nn.Module):
    def __init__(self, d_model=16, d_dict=64):
        super().__init__()
        self.enc = nn.Linear(d_model, d_dict)
        self.dec = nn.Linear(d_dict, d_model)

    def forward(self, acts):
        codes = F.relu(self.enc(acts))
        return self.dec(codes), codes


def sae_loss(output, target):
    recon, codes = output
    return F.mse_loss(recon, target) + L1_COEFF * codes.abs().sum(dim=-1).mean()


def make_optimizer(params):
    return torch.optim.SGD(params, lr=0.05)


def train_step(model, batch, optimizer, loss_fn):
    (acts,), target = batch
    model.train()
    optimizer.zero_grad()
    total = 0.0
    for a, t in zip(acts.chunk(N_ACCUM), target.chunk(N_ACCUM)):
        loss = loss_fn(model(a), t)
        loss.backward()  # BUG: the `/ N_ACCUM` scaling was dropped
        total += float(loss.detach())
    optimizer.step()
    return torch.tensor(total / N_ACCUM)


def make_target():
    torch.manual_seed(0)
    acts = torch.randn(64, 16)
    return {
        "model": SAE(),
        "batch": ((acts,), acts),
        "loss_fn": sae_loss,
        "optimizer": make_optimizer,
        "train_step": train_step,
    }
