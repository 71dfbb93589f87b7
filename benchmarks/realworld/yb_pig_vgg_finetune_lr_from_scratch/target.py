"""VGG-style CNN for pig identification (one class per pig), trained from scratch."""
import torch
import torch.nn as nn

NUM_PIGS = 10
BASE_LEARNING_RATE = 1e-6


def conv_block(c_in, c_out, n_convs):
    layers = []
    for i in range(n_convs):
        layers += [nn.Conv2d(c_in if i == 0 else c_out, c_out, 3, padding=1), nn.ReLU(inplace=True)]
    layers.append(nn.MaxPool2d(2))
    return nn.Sequential(*layers)


class VGG16Small(nn.Module):
    def __init__(self, num_classes=NUM_PIGS):
        super().__init__()
        self.features = nn.Sequential(
            conv_block(3, 16, 1), conv_block(16, 32, 1), conv_block(32, 64, 2)
        )
        self.classifier = nn.Sequential(
            nn.Flatten(), nn.Linear(64 * 2 * 2, 128), nn.ReLU(inplace=True), nn.Dropout(0.5), nn.Linear(128, num_classes)
        )

    def forward(self, x):
        return self.classifier(self.features(x))


def make_pig_images(n, seed):
    """Each pig has its own colour/texture signature; images are noisy crops of it."""
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(NUM_PIGS, 3, 16, 16, generator=torch.Generator().manual_seed(123))
    protos = torch.nn.functional.avg_pool2d(protos, 5, stride=1, padding=2)
    y = torch.randint(0, NUM_PIGS, (n,), generator=g)
    x = protos[y] * 2.0 + 0.5 * torch.randn(n, 3, 16, 16, generator=g)
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = make_pig_images(32, seed=0)
    vx, vy = make_pig_images(32, seed=1)
    return {
        "model": VGG16Small(),
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=BASE_LEARNING_RATE),
        "val_data": [(vx, vy)],
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
    }
