"""Recurrent mask estimator for multi-channel audio frames; the trainer clips gradients only if model.grad_clip is set."""
import torch
import torch.nn as nn
import torch.nn.functional as F

CONFIG = {"model_params": {"n_feats": 8, "hidden": 32}, "grad_clip": 1.0, "lr": 1e-2}


class MaskNet(nn.Module):
    def __init__(self, n_feats=8, hidden=32, grad_clip=None):
        super().__init__()
        self.grad_clip = grad_clip
        self.rnn = nn.RNN(n_feats, hidden, batch_first=True)
        with torch.no_grad():
            nn.init.orthogonal_(self.rnn.weight_hh_l0, gain=2.0)
        self.mask = nn.Linear(hidden, n_feats)

    def forward(self, mixture):
        h, _ = self.rnn(mixture)
        return torch.sigmoid(self.mask(h)) * mixture


def train_step(model, batch, optimizer, loss_fn):
    (mixture,), target = batch
    optimizer.zero_grad()
    loss = loss_fn(model(mixture), target)
    loss.backward()
    if model.grad_clip is not None:
        torch.nn.utils.clip_grad_norm_(model.parameters(), model.grad_clip)
    optimizer.step()
    return loss


def make_target():
    torch.manual_seed(0)
    model = MaskNet(**CONFIG["model_params"])
    mixture = torch.randn(8, 200, 8) * 0.1          # 200 frames of 8 features
    target = mixture * (torch.rand(8, 200, 8) > 0.5).float()
    return {
        "model": model,
        "batch": ((mixture,), target),
        "loss_fn": lambda est, ref: F.mse_loss(est, ref),
        "optimizer": lambda params: torch.optim.SGD(params, lr=CONFIG["lr"]),
        "train_step": train_step,
    }
