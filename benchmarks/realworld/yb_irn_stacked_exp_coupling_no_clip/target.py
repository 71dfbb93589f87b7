"""Invertible Rescaling Net (x2): Haar downsampling followed by a stack of affine-coupling InvBlockExp blocks.

Forward gives a low-resolution image (first 3 channels) plus a latent z; the upscaled image is recovered by running the
net in reverse on [LR, 0].  Trained without gradient clipping.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_BLOCKS = 16


class DenseSubnet(nn.Module):
    def __init__(self, c_in, c_out, width=16):
        super().__init__()
        self.conv1 = nn.Conv2d(c_in, width, 3, padding=1)
        self.conv2 = nn.Conv2d(width, c_out, 3, padding=1)
        for conv in (self.conv1, self.conv2):
            nn.init.xavier_normal_(conv.weight)
            nn.init.zeros_(conv.bias)

    def forward(self, x):
        return self.conv2(F.leaky_relu(self.conv1(x), 0.2))


class InvBlockExp(nn.Module):
    def __init__(self, channels, split, clamp=1.0):
        super().__init__()
        self.split1, self.split2, self.clamp = split, channels - split, clamp
        self.F = DenseSubnet(self.split2, self.split1)
        self.G = DenseSubnet(self.split1, self.split2)
        self.H = DenseSubnet(self.split1, self.split2)

    def forward(self, x, rev=False):
        x1, x2 = x[:, : self.split1], x[:, self.split1 :]
        if not rev:
            y1 = x1 + self.F(x2)
            s = self.clamp * (torch.sigmoid(self.H(y1)) * 2 - 1)
            y2 = x2 * torch.exp(s) + self.G(y1)
        else:
            s = self.clamp * (torch.sigmoid(self.H(x1)) * 2 - 1)
            y2 = (x2 - self.G(x1)) / torch.exp(s)
            y1 = x1 - self.F(y2)
        return torch.cat([y1, y2], 1)


class HaarDownsampling(nn.Module):
    def __init__(self, channels):
        super().__init__()
        w = torch.ones(4, 1, 2, 2)
        w[1, 0, 0, 1] = w[1, 0, 1, 1] = -1
        w[2, 0, 1, 0] = w[2, 0, 1, 1] = -1
        w[3, 0, 1, 0] = w[3, 0, 0, 1] = -1
        self.register_buffer("haar_weights", torch.cat([w] * channels, 0))
        self.channels = channels

    def forward(self, x, rev=False):
        c = self.channels
        if not rev:
            out = F.conv2d(x, self.haar_weights, stride=2, groups=c) / 4.0
            b, _, h, w = out.shape
            return out.reshape(b, c, 4, h, w).transpose(1, 2).reshape(b, 4 * c, h, w)
        b, _, h, w = x.shape
        out = x.reshape(b, 4, c, h, w).transpose(1, 2).reshape(b, 4 * c, h, w)
        return F.conv_transpose2d(out, self.haar_weights, stride=2, groups=c)


class InvRescaleNet(nn.Module):
    def __init__(self, n_blocks=N_BLOCKS):
        super().__init__()
        self.operations = nn.ModuleList([HaarDownsampling(3)] + [InvBlockExp(12, 3) for _ in range(n_blocks)])

    def forward(self, x, rev=False):
        ops = self.operations if not rev else reversed(self.operations)
        for op in ops:
            x = op(x, rev)
        return x


def irn_loss(model, hr):
    out = model(hr)
    lr, z = out[:, :3], out[:, 3:]
    l_forw = 16.0 * F.mse_loss(lr, F.avg_pool2d(hr, 2))
    l_distr = (z ** 2).mean()
    rec = model(torch.cat([lr, torch.zeros_like(z)], 1), rev=True)
    l_back = F.l1_loss(rec, hr)
    return l_forw + l_distr + l_back


def train_step(model, batch, optimizer, loss_fn):
    hr, _ = batch
    model.train()
    optimizer.zero_grad()
    loss = irn_loss(model, hr)
    loss.backward()
    optimizer.step()
    return loss.item()


def make_target():
    torch.manual_seed(0)
    model = InvRescaleNet()
    hr = torch.rand(8, 3, 8, 8)
    return {
        "model": model,
        "batch": (hr, hr),
        "loss_fn": lambda out, hr: F.l1_loss(out[:, :3], F.avg_pool2d(hr, 2)) + (out[:, 3:] ** 2).mean(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=2e-4),
        "train_step": train_step,
    }
