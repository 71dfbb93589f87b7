"""Fine-tuning with a 'frozen' pretrained feature layer: the layer is frozen by discarding its gradient (the analogue of
emptying accGradParameters), but its parameters are still handed to an SGD optimizer with weight decay."""

import torch
import torch.nn as nn


class FineTuneNet(nn.Module):
    def __init__(self):
        super().__init__()
        g = torch.Generator().manual_seed(7)
        self.features = nn.Linear(20, 64)
        with torch.no_grad():  # "pretrained" weights
            self.features.weight.copy_(torch.randn(64, 20, generator=g) * 0.3)
            self.features.bias.copy_(torch.randn(64, generator=g) * 0.1)
        for p in self.features.parameters():
            p.register_hook(lambda grad: torch.zeros_like(grad))  # freeze: no gradient reaches the layer
        self.classifier = nn.Linear(64, 5)

    def forward(self, x):
        return self.classifier(torch.relu(self.features(x)))


def make_batch(g, n=128):
    x = torch.randn(n, 20, generator=g)
    y = (x[:, :5].argmax(1)).long()
    return x, y


def make_target():
    torch.manual_seed(0)
    model = FineTuneNet()
    x, y = make_batch(torch.Generator().manual_seed(0))
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, weight_decay=5e-3),
    }
