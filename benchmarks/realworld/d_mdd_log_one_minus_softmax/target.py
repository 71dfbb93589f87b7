"""MDD-style domain adaptation: a classifier and an adversarial classifier behind a gradient reversal layer.

Inputs are source and target rows in one batch; targets hold the source labels and -1 for the unlabelled
target rows. The loss follows the margin disparity discrepancy: cross-entropy on the source labels, the
adversary fitted to the classifier's pseudo-labels on the source, and log(1 - softmax) on the target.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES, SRC_WEIGHT, GRL_COEFF = 4, 4.0, 0.3


class _Reverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, coeff):
        ctx.coeff = coeff
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        return -ctx.coeff * grad, None


class MDDNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.classifier = nn.Linear(64, N_CLASSES)
        self.adversary = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, N_CLASSES))

    def forward(self, x):
        f = self.features(x)
        return self.classifier(f), self.adversary(_Reverse.apply(f, GRL_COEFF))


def mdd_loss(out, y):
    logits, adv = out
    src = y >= 0
    cls_loss = F.cross_entropy(logits[src], y[src])
    pseudo = logits.detach().argmax(1)
    adv_src = F.cross_entropy(adv[src], pseudo[src])
    logloss_tgt = torch.log(1 - F.softmax(adv[~src], dim=1))
    adv_tgt = F.nll_loss(logloss_tgt, pseudo[~src])
    return cls_loss + SRC_WEIGHT * adv_src + adv_tgt


def _domains(n, seed):
    g = torch.Generator().manual_seed(seed)
    centers = 2 * torch.randn(N_CLASSES, 16, generator=torch.Generator().manual_seed(0))
    ys = torch.randint(0, N_CLASSES, (n,), generator=g)
    yt = torch.randint(0, N_CLASSES, (n,), generator=g)
    xs = centers[ys] + torch.randn(n, 16, generator=g)
    xt = centers[yt] + torch.randn(n, 16, generator=g) + 0.5  # shifted target domain
    return torch.cat([xs, xt]), torch.cat([ys, torch.full_like(yt, -1)]), yt


def make_target():
    torch.manual_seed(0)
    x, y, _ = _domains(32, 1)
    return {
        "model": MDDNet(),
        "batch": (x, y),
        "loss_fn": mdd_loss,
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.02, momentum=0.9),
        "train_data": [(x_, y_) for x_, y_, _ in (_domains(32, s) for s in range(100, 500))],
    }
