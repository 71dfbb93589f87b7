"""Small detector-style network: conv backbone (meant to be frozen) + head, fine-tuned on a new dataset.

The setup freezes the backbone by name, then builds the optimizer parameter groups.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Det(nn.Module):
    def __init__(self, nc=3):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 8, 3, 2, 1, bias=False), nn.BatchNorm2d(8), nn.SiLU(),
            nn.Conv2d(8, 16, 3, 2, 1, bias=False), nn.BatchNorm2d(16), nn.SiLU(),
        )
        self.head = nn.Conv2d(16, 5 + nc, 1)

    def forward(self, x):
        return self.head(self.backbone(x)).mean(dim=(2, 3))


FREEZE = ["backbone."]


def build(model, lr=0.01):
    for k, v in model.named_parameters():
        if any(f in k for f in FREEZE):
            print(f"freezing {k}")
            v.requires_grad = False
    pg0, pg1, pg2 = [], [], []  # bn weights, conv weights, biases
    for k, v in model.named_parameters():
        v.requires_grad = True
        if k.endswith(".bias"):
            pg2.append(v)
        elif v.ndim == 1:
            pg0.append(v)
        else:
            pg1.append(v)
    opt = torch.optim.SGD(pg0, lr=lr, momentum=0.937, nesterov=True)
    opt.add_param_group({"params": pg1, "weight_decay": 5e-4})
    opt.add_param_group({"params": pg2})
    return opt


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 3, 16, 16, generator=g)
    y = torch.randn(n, 8, generator=g) * 0.5 + x.mean(dim=(2, 3)).repeat(1, 3)[:, :8]
    return x, y


def loss_fn(out, y):
    return F.mse_loss(out, y)


def make_target():
    torch.manual_seed(0)
    model = Det()
    build(model)  # the training script applies the freeze list and builds the groups here
    return {
        "model": model,
        "batch": _data(16, 1),
        "loss_fn": loss_fn,
        "optimizer": lambda m: build(m),
        "train_data": _data(128, 2),
    }
