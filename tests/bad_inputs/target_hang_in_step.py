import torch
from torch import nn


def train_step(model, batch, optimizer, loss_fn):
    while True:  # a data loader that never returns, say
        pass


def make_target():
    torch.manual_seed(0)
    return {"model": nn.Linear(3, 1), "batch": (torch.randn(8, 3), torch.randn(8, 1)),
            "loss_fn": nn.MSELoss(), "train_step": train_step}
