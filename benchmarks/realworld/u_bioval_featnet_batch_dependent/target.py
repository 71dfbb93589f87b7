"""Image-set evaluation with a pretrained BatchNorm feature network that is never switched to eval mode."""
import torch
from torch import nn
import torch.nn.functional as F


class FeatNet(nn.Module):
    """Stand-in for an Inception-style backbone: conv + BatchNorm blocks, 10 logits."""

    def __init__(self, n_cls=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 32, 3, padding=1, stride=2), nn.BatchNorm2d(32), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(32, n_cls)

    def forward(self, x):
        return self.head(self.features(x))


def _pretrained():
    torch.manual_seed(0)
    net = FeatNet()
    # pretend pretraining left non-trivial running statistics in the BN layers
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.uniform_(-0.2, 0.2)
                m.running_var.uniform_(0.5, 1.5)
        net.head.weight.mul_(6.0)
    return net


def score_images(model, images):
    # evaluation routine of the metrics package: softmax class probabilities of the backbone
    with torch.no_grad():
        return F.softmax(model(images), dim=1)


def mean_confidence(probs, _targets=None):
    return probs.max(dim=1).values.mean().item()


def make_target():
    torch.manual_seed(0)
    model = _pretrained()  # loaded, but .eval() is never called before scoring
    g = torch.Generator().manual_seed(1)
    images = torch.rand(32, 3, 16, 16, generator=g) * torch.linspace(0.5, 1.5, 32).view(32, 1, 1, 1)
    labels = torch.randint(0, 10, (32,), generator=g)
    return {"model": model, "batch": (images, labels), "loss_fn": nn.CrossEntropyLoss(),
            "eval_fn": score_images, "metric_fn": mean_confidence}
