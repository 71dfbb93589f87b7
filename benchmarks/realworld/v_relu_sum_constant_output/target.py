"""5-2-1 ReLU regressor trained to output the sum of its inputs."""
import torch
from torch import nn


class SumNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(5, 2)
        self.out = nn.Linear(2, 1)

    def forward(self, x):
        return self.out(torch.relu(self.hidden(x))).squeeze(-1)


def make_target():
    torch.manual_seed(17)
    model = SumNet()
    x = torch.tensor([[1., 2., 3., 4., 5.], [1., 2., 3., 4., 6.]])
    y = x.sum(1)
    return {"model": model, "batch": (x, y), "loss_fn": nn.MSELoss(),
            "optimizer": lambda p: torch.optim.SGD(p, lr=0.01)}
