"""MLP GAN on 8x8 digit-like images. The discriminator has BatchNorm and each D update runs on one
batch made by concatenating the real images and the generated images (labels 1 / 0)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

LATENT = 16


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(LATENT, 128), nn.BatchNorm1d(128), nn.LeakyReLU(0.2),
                                 nn.Linear(128, 64), nn.Tanh())

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(64, 128), nn.BatchNorm1d(128), nn.LeakyReLU(0.2),
                                 nn.Linear(128, 64), nn.BatchNorm1d(64), nn.LeakyReLU(0.2),
                                 nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def real_images(n, seed):
    g = torch.Generator().manual_seed(seed)
    strokes = torch.zeros(n, 8, 8)
    col = torch.randint(1, 7, (n,), generator=g)
    row = torch.randint(1, 7, (n,), generator=g)
    strokes[torch.arange(n), :, col] = 1.0
    strokes[torch.arange(n), row, :] = 1.0
    return (strokes.flatten(1) + 0.05 * torch.randn(n, 64, generator=g)) * 2 - 1


class DiscriminatorStep(nn.Module):
    """Scores a real batch and a generated batch for one D update."""
    def __init__(self):
        super().__init__()
        self.D = Discriminator()

    def forward(self, real, fake):
        x = torch.cat([real, fake], dim=0)      # one batch: real images followed by generated ones
        logits = self.D(x)
        return torch.stack([logits[: len(real)], logits[len(real):]], dim=1)   # (n, 2): real, fake


def d_loss(logits, _targets):
    return (F.binary_cross_entropy_with_logits(logits[:, 0], torch.ones_like(logits[:, 0]))
            + F.binary_cross_entropy_with_logits(logits[:, 1], torch.zeros_like(logits[:, 1])))


def train_step(model, batch, optimizer, loss_fn):
    (real, fake), y = batch
    model.train()
    optimizer.zero_grad()
    loss = loss_fn(model(real, fake), y)
    loss.backward()
    optimizer.step()
    return loss.item()


with torch.random.fork_rng():
    torch.manual_seed(123)
    G = Generator()                          # the generator at this point of training


def make_target():
    torch.manual_seed(0)
    step = DiscriminatorStep()
    with torch.no_grad():
        G.train()
        fake = G(torch.randn(32, LATENT))
    real = real_images(32, seed=1)
    return {
        "model": step,
        "batch": ((real, fake), torch.zeros(32)),
        "loss_fn": d_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=2e-4, betas=(0.5, 0.999)),
        "train_step": train_step,
    }
