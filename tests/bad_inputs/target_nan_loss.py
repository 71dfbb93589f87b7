import torch
from torch import nn


def log_loss(pred, y):
    return -(y * torch.log(pred - pred.detach())).mean()  # log(0) at step 0


def make_target():
    torch.manual_seed(0)
    return {"model": nn.Linear(3, 1), "batch": (torch.randn(8, 3), torch.rand(8, 1)), "loss_fn": log_loss}
