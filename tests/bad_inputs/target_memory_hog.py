import torch
from torch import nn


def train_step(model, batch, optimizer, loss_fn):
    cache = [torch.ones(256, 1024, 1024) for _ in range(64)]  # 64 GiB of "activations"
    return loss_fn(model(batch[0]), batch[1]) + len(cache)


def make_target():
    torch.manual_seed(0)
    return {"model": nn.Linear(3, 1), "batch": (torch.randn(8, 3), torch.randn(8, 1)),
            "loss_fn": nn.MSELoss(), "train_step": train_step}
