"""Xu-Net-style steganalysis CNN (fixed high-pass filter, abs, tanh/relu convs, global pooling)
trained on a small set of cover/stego patches. The code is ordinary; the training set is tiny."""
import torch
import torch.nn as nn
import torch.nn.functional as F

KV = torch.tensor([[-1., 2., -2., 2., -1.],
                   [2., -6., 8., -6., 2.],
                   [-2., 8., -12., 8., -2.],
                   [2., -6., 8., -6., 2.],
                   [-1., 2., -2., 2., -1.]]) / 12.0


class XuNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("hpf", KV.view(1, 1, 5, 5))
        self.conv1 = nn.Conv2d(1, 16, 5, padding=2)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.conv3 = nn.Conv2d(32, 64, 3, padding=1)
        self.fc = nn.Linear(64, 2)

    def forward(self, x):
        r = F.conv2d(x, self.hpf, padding=2)          # noise residual
        h = torch.tanh(torch.abs(self.conv1(r)))
        h = F.avg_pool2d(h, 2)
        h = torch.tanh(self.conv2(h))
        h = F.avg_pool2d(h, 2)
        h = F.relu(self.conv3(h))
        h = h.mean(dim=(2, 3))
        return self.fc(h)


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    cover = torch.rand(n, 1, 16, 16, generator=g)
    cover = F.avg_pool2d(F.pad(cover, (1, 1, 1, 1), mode="replicate"), 3, stride=1)  # smooth "natural" texture
    y = torch.randint(0, 2, (n,), generator=g)
    # +-1/255 embedding changes on ~10% of pixels of the stego images
    flips = (torch.rand(n, 1, 16, 16, generator=g) < 0.1).float()
    signs = torch.randint(0, 2, (n, 1, 16, 16), generator=g).float() * 2 - 1
    x = cover + y.view(-1, 1, 1, 1).float() * flips * signs / 255.0
    return x, y


def make_target():
    torch.manual_seed(0)
    x_tr, y_tr = make_split(40, seed=1)       # only 40 training patches
    x_va, y_va = make_split(200, seed=2)
    return {
        "model": XuNet(),
        "batch": (x_tr, y_tr),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "train_data": (x_tr, y_tr),
        "val_data": (x_va, y_va),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
    }
