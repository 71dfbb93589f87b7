"""Vanilla MLP GAN on 8x8 images; one training step updates the discriminator, then the generator."""
import torch
import torch.nn as nn
import torch.optim as optim


class Generator(nn.Module):
    def __init__(self, image_size=8, channels=1, latent_dims=16, lr=2e-4):
        super().__init__()
        self.image_size, self.channels, self.latent_dims = image_size, channels, latent_dims
        self.main = nn.Sequential(
            nn.Linear(latent_dims, 64), nn.LeakyReLU(0.2),
            nn.Linear(64, 128), nn.LeakyReLU(0.2),
            nn.Linear(128, image_size * image_size * channels), nn.Tanh(),
        )
        self.optimizer = optim.Adam(self.parameters(), lr=lr, betas=(0.5, 0.999))

    def forward(self, z):
        return self.main(z).view(-1, self.channels, self.image_size, self.image_size)


class Discriminator(nn.Module):
    def __init__(self, image_size=8, channels=1):
        super().__init__()
        self.n_in = image_size * image_size * channels
        self.main = nn.Sequential(
            nn.Linear(self.n_in, 128), nn.LeakyReLU(0.2), nn.Dropout(0.3),
            nn.Linear(128, 64), nn.LeakyReLU(0.2), nn.Dropout(0.3),
            nn.Linear(64, 1), nn.Sigmoid(),
        )

    def forward(self, x):
        return self.main(x.view(-1, self.n_in))


class GAN(nn.Module):
    def __init__(self):
        super().__init__()
        self.generator = Generator()
        self.discriminator = Discriminator()

    def forward(self, images):
        return self.discriminator(images).view(-1)


def gan_step(model, batch, optimizer, loss_fn):
    real_image, _ = batch
    b = real_image.shape[0]
    real_label = torch.full((b,), 1.0)
    fake_label = torch.full((b,), 0.0)
    # discriminator: real batch, then fake batch
    errD_real = loss_fn(model.discriminator(real_image).view(-1), real_label)
    errD_real.backward()
    noise = torch.randn(b, model.generator.latent_dims)
    fake = model.generator(noise)
    errD_fake = loss_fn(model.discriminator(fake.detach()).view(-1), fake_label)
    errD_fake.backward()
    optimizer.step()
    # generator
    model.generator.zero_grad()
    errG = loss_fn(model.discriminator(fake).view(-1), real_label)
    errG.backward()
    model.generator.optimizer.step()
    return (errD_real + errD_fake).detach()


def make_target():
    torch.manual_seed(0)
    real = torch.tanh(torch.randn(32, 1, 8, 8) + 1.0)
    return {
        "model": GAN(),
        "batch": (real, torch.ones(32)),
        "loss_fn": nn.BCELoss(),
        "optimizer": lambda model: optim.Adam(model.discriminator.parameters(), lr=2e-4, betas=(0.5, 0.999)),
        "train_step": gan_step,
    }
