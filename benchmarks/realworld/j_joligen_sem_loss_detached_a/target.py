"""Image translation generator with a semantic-consistency loss from a fixed segmentation/classifier net f_s."""

import torch
import torch.nn as nn
import torch.nn.functional as F

D, N_CLS = 32, 4


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.g = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, D))
        self.f_s = nn.Linear(D, N_CLS)  # pretrained semantic net, kept fixed while the generator trains
        for p in self.f_s.parameters():
            p.requires_grad_(False)

    def forward(self, real_a):
        fake_b = real_a + self.g(real_a)
        pf_b = self.f_s(fake_b.detach())  # semantic prediction on the translated image
        return fake_b, pf_b


def gen_loss(out, batch_target):
    fake_b, pf_b = out
    real_a, label_a = batch_target
    loss_idt = F.l1_loss(fake_b, real_a)
    loss_sem = F.cross_entropy(pf_b, label_a)
    return 0.1 * loss_idt + loss_sem


def _domain(n, seed):
    g = torch.Generator().manual_seed(seed)
    real_a = torch.randn(n, D, generator=g)
    label_a = torch.randint(0, N_CLS, (n,), generator=g)
    return real_a, (real_a, label_a)


def make_target():
    torch.manual_seed(0)
    return {
        "model": Generator(),
        "batch": _domain(16, 1),
        "loss_fn": gen_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=2e-3),
        "train_data": _domain(512, 2),
        "val_data": _domain(128, 3),
    }
