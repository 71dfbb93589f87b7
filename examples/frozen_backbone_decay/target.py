"""A frozen feature extractor with a trainable head; the hand-written optimizer decays every weight it holds."""

import torch
from torch import nn


class Classifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU())
        self.head = nn.Linear(32, 4)
        for p in self.features.parameters():
            p.requires_grad = False  # meant to stay at the pretrained values

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))  # (B, 4)


class DecoupledDecay:
    """Adam plus decoupled weight decay, written by hand: the decay runs over every parameter, frozen or not."""

    def __init__(self, params, lr: float = 1e-3, weight_decay: float = 0.05) -> None:
        self.params = list(params)
        self.adam = torch.optim.Adam(self.params, lr=lr)
        self.param_groups = self.adam.param_groups
        self.decay = lr * weight_decay

    def zero_grad(self, set_to_none: bool = True) -> None:
        self.adam.zero_grad(set_to_none=set_to_none)

    def step(self) -> None:
        with torch.no_grad():
            for p in self.params:
                p.mul_(1 - self.decay)
        self.adam.step()


def make_target():
    torch.manual_seed(0)
    x = torch.randn(256, 20)
    y = (x[:, :4] @ torch.randn(4, 4)).argmax(1)
    return {
        "model": Classifier(),
        "batch": (x[:64], y[:64]),
        "loss_fn": nn.functional.cross_entropy,
        "optimizer": lambda params: DecoupledDecay(params),
        "train_data": (x, y),
    }
