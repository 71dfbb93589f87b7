"""Multi-domain patch discriminator (DRIT/MDMM style): strided LeakyReLU conv blocks, adversarial + domain heads."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_DOMAINS = 5


def gaussian_weights_init(m):
    classname = m.__class__.__name__
    if classname.find("Conv") == 0 and hasattr(m, "weight"):
        m.weight.data.normal_(0.0, 0.2)


class LeakyReLUConv2d(nn.Module):
    def __init__(self, n_in, n_out, kernel_size, stride, padding=0):
        super().__init__()
        self.model = nn.Sequential(
            nn.ReflectionPad2d(padding),
            nn.Conv2d(n_in, n_out, kernel_size=kernel_size, stride=stride, padding=0, bias=True),
            nn.LeakyReLU(0.2, inplace=False),
        )
        self.model.apply(gaussian_weights_init)

    def forward(self, x):
        return self.model(x)


class MultiDomainDiscriminator(nn.Module):
    def __init__(self, input_dim=3, ch=16, n_layer=5, c_dim=N_DOMAINS, image_size=32):
        super().__init__()
        layers = [LeakyReLUConv2d(input_dim, ch, 3, 2, 1)]
        tch = ch
        for _ in range(1, n_layer):
            layers.append(LeakyReLUConv2d(tch, min(tch * 2, 128), 3, 2, 1))
            tch = min(tch * 2, 128)
        self.model = nn.Sequential(*layers)
        k = image_size // (2 ** n_layer)
        self.conv1 = nn.Conv2d(tch, 1, kernel_size=1, stride=1, padding=0, bias=False)
        self.conv2 = nn.Conv2d(tch, c_dim, kernel_size=k, bias=False)
        self.conv1.apply(gaussian_weights_init)
        self.conv2.apply(gaussian_weights_init)

    def forward(self, x):
        h = self.model(x)
        out_adv = self.conv1(h).flatten(1).mean(1)
        out_cls = self.conv2(h).flatten(1)
        return out_adv, out_cls


def dis_loss(outputs, targets):
    out_adv, out_cls = outputs
    real, domain = targets
    adv = F.binary_cross_entropy_with_logits(out_adv, real)
    cls = F.cross_entropy(out_cls, domain)
    return adv + cls


def make_patches(n, seed):
    g = torch.Generator().manual_seed(seed)
    domain = torch.randint(0, N_DOMAINS, (n,), generator=g)
    # stain-like colour shift per domain on top of textured tissue noise, roughly in [-1, 1]
    tint = torch.linspace(-0.5, 0.5, N_DOMAINS)[domain].view(n, 1, 1, 1) * torch.tensor([1.0, -0.5, 0.3]).view(1, 3, 1, 1)
    x = (0.4 * torch.randn(n, 3, 32, 32, generator=g) + tint).clamp(-1, 1)
    real = torch.ones(n)
    return x, (real, domain)


def make_target():
    torch.manual_seed(0)
    x, y = make_patches(16, 1)
    return {
        "model": MultiDomainDiscriminator(),
        "batch": (x, y),
        "loss_fn": dis_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-4, betas=(0.5, 0.999), weight_decay=1e-4),
        "train_data": [make_patches(16, s) for s in range(2, 10)],
    }
