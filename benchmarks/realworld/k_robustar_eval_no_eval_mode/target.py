"""Small BN CNN on 4-class 8x8 images; the app reloads the trained model and runs its test routine.

The test split is stored grouped by class (as written out by the labelling tool) and evaluated in order.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES = 4


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 8, 3, padding=1)
        self.b1 = nn.BatchNorm2d(8)
        self.c2 = nn.Conv2d(8, 16, 3, padding=1)
        self.b2 = nn.BatchNorm2d(16)
        self.fc = nn.Linear(16, N_CLASSES)

    def forward(self, x):
        x = F.relu(self.b1(self.c1(x)))
        x = F.relu(self.b2(self.c2(x)))
        return self.fc(x.mean((2, 3)))


def _images(n, seed, grouped):
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(N_CLASSES, 1, 8, 8, generator=torch.Generator().manual_seed(7))
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    if grouped:
        y, _ = torch.sort(y)
    levels = torch.tensor([-1.5, -0.5, 0.5, 1.5]).view(N_CLASSES, 1, 1, 1)
    x = levels[y] + 0.2 * protos[y] + 0.5 * torch.randn(n, 1, 8, 8, generator=g)
    return x, y


def _train(model, data, epochs=6):
    x, y = data
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    g = torch.Generator().manual_seed(0)
    model.train()
    for _ in range(epochs):
        perm = torch.randperm(len(x), generator=g)
        for i in range(0, len(x), 32):
            idx = perm[i : i + 32]
            opt.zero_grad()
            F.cross_entropy(model(x[idx]), y[idx]).backward()
            opt.step()
    return model


def evaluate(model, batch):
    """The app's test routine (the trained weights are already loaded into `model`)."""
    x, _ = batch
    with torch.no_grad():
        return model(x)


def make_target():
    torch.manual_seed(0)
    train = _images(512, 1, grouped=False)
    model = _train(SmallCNN(), train)  # stands in for loading the saved checkpoint
    test = _images(256, 2, grouped=True)
    return {
        "model": model,
        "batch": (test[0][:32], test[1][:32]),
        "loss_fn": nn.CrossEntropyLoss(),
        "eval_fn": evaluate,
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "train_data": train,
        "val_data": test,
    }
