"""Small CIFAR-style CNN hardened by trigger inversion: every step first inverts a trigger against the current model,
then trains on clean images plus trigger-stamped images with their true labels."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallCNN(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(32)
        self.fc = nn.Linear(32 * 4 * 4, n_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.max_pool2d(F.relu(self.bn2(self.conv2(x))), 2)
        return self.fc(x.flatten(1))


def invert_trigger(model, x, target_class=0, steps=3, lr=0.1):
    """Optimise a small additive pattern that pushes images towards target_class."""
    model.eval()
    pattern = torch.zeros(1, *x.shape[1:], requires_grad=True)
    for _ in range(steps):
        logits = model(x + pattern)
        loss = F.cross_entropy(logits, torch.full((len(x),), target_class))
        g, = torch.autograd.grad(loss, pattern)
        pattern = (pattern - lr * g.sign()).clamp(-0.2, 0.2).detach().requires_grad_(True)
    return pattern.detach()


def train_step(model, batch, optimizer, loss_fn):
    x, y = batch
    model.train()
    pattern = invert_trigger(model, x)
    inputs = torch.cat([x, x + pattern])
    labels = torch.cat([y, y])
    optimizer.zero_grad()
    loss = loss_fn(model(inputs), labels)
    loss.backward()
    optimizer.step()
    return loss.item()


def _images(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 10, (n,), generator=g)
    x = 0.5 + 0.25 * torch.randn(n, 3, 16, 16, generator=g)     # raw [0, 1]-scale pixels, not standardised
    x = x + 0.3 * (y.float() / 9).view(-1, 1, 1, 1)
    return x, y


def make_target():
    torch.manual_seed(0)
    return {
        "model": SmallCNN(),
        "batch": _images(32, 1),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.05, momentum=0.9),
        "train_step": train_step,
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "train_data": _images(256, 2),
        "val_data": _images(128, 3),
    }
