"""Small conv classifier whose normalisation layers always run with batch statistics (training flag fixed to True)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BNAlwaysTraining(nn.BatchNorm2d):
    """BatchNorm2d whose call always passes training=True, as the course model hard-wired it."""

    def forward(self, x):
        return F.batch_norm(x, self.running_mean, self.running_var, self.weight, self.bias,
                            training=True, momentum=self.momentum, eps=self.eps)


class SignNet(nn.Module):
    def __init__(self, n_classes=6):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = BNAlwaysTraining(8)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.bn2 = BNAlwaysTraining(16)
        self.fc = nn.Linear(16 * 4 * 4, n_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.max_pool2d(F.relu(self.bn2(self.conv2(x))), 2)
        return self.fc(x.flatten(1))


def eval_fn(model, x):
    model.eval()
    with torch.no_grad():
        return model(x)


def make_target():
    torch.manual_seed(0)
    imgs = torch.rand(32, 3, 16, 16)
    labels = torch.randint(0, 6, (32,))
    return {
        "model": SignNet(),
        "batch": (imgs, labels),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "eval_fn": eval_fn,
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
    }
