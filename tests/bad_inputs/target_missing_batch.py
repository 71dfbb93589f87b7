from torch import nn


def make_target():
    return {"model": nn.Linear(2, 2), "loss_fn": nn.MSELoss()}
