"""AC-GAN discriminator (MLP on flattened 8x8 images, 10 classes): a shared trunk, a real/fake head and an
auxiliary class head. This target trains the discriminator side on a batch of real and generated samples.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

X_DIM, H_DIM, Y_DIM = 64, 128, 10


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.D_shared = nn.Sequential(nn.Linear(X_DIM, H_DIM), nn.PReLU())
        self.D_gan = nn.Sequential(nn.Linear(H_DIM, 1), nn.Sigmoid())
        self.D_aux = nn.Sequential(nn.Linear(H_DIM, Y_DIM), nn.Softmax(dim=1))

    def forward(self, x):
        h = self.D_shared(x)
        return self.D_gan(h).squeeze(1), self.D_aux(h)


class Generator(nn.Module):
    def __init__(self, z_dim=16):
        super().__init__()
        self.z_dim = z_dim
        self.net = nn.Sequential(nn.Linear(z_dim + Y_DIM, H_DIM), nn.ReLU(), nn.Linear(H_DIM, X_DIM), nn.Sigmoid())

    def forward(self, z, c):
        return self.net(torch.cat([z, F.one_hot(c, Y_DIM).float()], 1))


_PROTOS = torch.rand(Y_DIM, X_DIM, generator=torch.Generator().manual_seed(7))


def real_images(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, Y_DIM, (n,), generator=g)
    x = (_PROTOS[y] + 0.15 * torch.randn(n, X_DIM, generator=g)).clamp(0, 1)
    return x, y


def d_batch(n, seed, G):
    """Half real images with their labels, half generated images with the class they were conditioned on."""
    xr, yr = real_images(n, seed)
    g = torch.Generator().manual_seed(seed + 1000)
    c = torch.randint(0, Y_DIM, (n,), generator=g)
    with torch.no_grad():
        xf = G(torch.randn(n, G.z_dim, generator=g), c)
    x = torch.cat([xr, xf])
    is_real = torch.cat([torch.ones(n), torch.zeros(n)])
    return x, (is_real, torch.cat([yr, c]))


def loss_fn(out, targets):
    p_real, class_out = out
    is_real, y = targets
    d_loss = F.binary_cross_entropy(p_real, is_real)
    c_loss = F.cross_entropy(class_out, y)
    return d_loss + c_loss


def metric_fn(out, targets):
    return (out[1].argmax(1) == targets[1]).float().mean().item()


def make_target():
    torch.manual_seed(0)
    G = Generator()
    return {
        "model": Discriminator(),
        "batch": d_batch(32, 1, G),
        "loss_fn": loss_fn,
        "metric_fn": metric_fn,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": [d_batch(32, s, G) for s in range(2, 6)],
        "val_data": [d_batch(32, 99, G)],
    }
