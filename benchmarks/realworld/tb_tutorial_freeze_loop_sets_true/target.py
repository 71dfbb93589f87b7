"""Fine-tuning recipe "freeze the feature extractor, train only the new fc" on a tiny ResNet-like CNN (ants vs bees)."""
import torch
import torch.nn as nn


class TinyResNet(nn.Module):
    def __init__(self, n_classes=1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 16, 3, stride=2, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(16)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, n_classes)

    def forward(self, x):
        x = torch.relu(self.bn1(self.conv1(x)))
        x = torch.relu(self.bn2(self.conv2(x)))
        return self.fc(self.pool(x).flatten(1))


def build_finetune_model(classes=2):
    torch.manual_seed(0)
    net = TinyResNet()                      # stands in for resnet18 + loaded ImageNet weights
    # method 1: freeze the convolutional layers
    for param in net.parameters():
        param.requires_grad = True
    net.fc = nn.Linear(net.fc.in_features, classes)   # new head
    return net


def _images(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 2, (n,), generator=g)
    x = torch.randn(n, 3, 16, 16, generator=g) + 0.8 * y.view(-1, 1, 1, 1).float()
    return x, y


def make_target():
    x, y = _images(16, 1)
    criterion = nn.CrossEntropyLoss()
    return {
        "model": build_finetune_model(),
        "batch": (x, y),
        "loss_fn": criterion,
        "metric_fn": lambda out, labels: (out.argmax(1) == labels).float().mean().item(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=1e-3, momentum=0.9),
        "train_data": _images(64, 2),
        "val_data": _images(32, 3),
    }
