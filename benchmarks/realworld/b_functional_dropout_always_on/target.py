"""Small conv classifier whose forward hard-codes functional dropout with training=True."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SimpleConvNet(nn.Module):
    def __init__(self, n_cls=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        )
        self.classifier = nn.Linear(32, n_cls)

    def forward(self, x):
        out = self.features(x)
        out = F.max_pool2d(out, kernel_size=out.size()[2:])  # global max pooling
        out = F.dropout2d(out, 0.1, training=True)  # BUG: ignores self.training
        out = out.view(out.size(0), -1)
        return self.classifier(out)


def eval_fn(model, batch):
    x, _ = batch
    model.eval()
    with torch.no_grad():
        return model(x)


def accuracy(output, targets):
    return float((output.argmax(dim=1) == targets).float().mean())


def make_target():
    torch.manual_seed(0)
    x = torch.randn(16, 3, 16, 16)
    y = torch.randint(0, 10, (16,))
    return {
        "model": SimpleConvNet(),
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "eval_fn": eval_fn,
        "metric_fn": accuracy,
    }
