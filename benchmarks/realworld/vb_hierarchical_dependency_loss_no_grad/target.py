import torch
from torch import nn

N_COARSE = 3
N_FINE = 9
FINE_TO_COARSE = torch.arange(N_FINE) // 3


class HierarchicalNet(nn.Module):
    def __init__(self, d_in=20, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU())
        self.coarse_head = nn.Linear(hidden, N_COARSE)
        self.fine_head = nn.Linear(hidden, N_FINE)

    def forward(self, x):
        h = self.body(x)
        return self.coarse_head(h), self.fine_head(h)


def check_hierarchy(coarse_pred, fine_pred):
    bad = [0.0 if FINE_TO_COARSE[f] == c else 1.0 for c, f in zip(coarse_pred.tolist(), fine_pred.tolist())]
    return torch.FloatTensor(bad)


class HierarchicalLoss(nn.Module):
    def __init__(self, alpha=1.0, beta=0.8, p_loss=3.0):
        super().__init__()
        self.alpha, self.beta, self.p_loss = alpha, beta, p_loss

    def forward(self, outputs, targets):
        coarse_logits, fine_logits = outputs
        coarse_y, fine_y = targets
        lloss = nn.functional.cross_entropy(coarse_logits, coarse_y) + nn.functional.cross_entropy(fine_logits, fine_y)
        coarse_pred = torch.argmax(coarse_logits, dim=1)
        fine_pred = torch.argmax(fine_logits, dim=1)
        d = check_hierarchy(coarse_pred, fine_pred)
        l_prev = (coarse_pred != coarse_y).float()
        l_curr = (fine_pred != fine_y).float()
        dloss = torch.sum(torch.pow(self.p_loss, d * l_prev) * torch.pow(self.p_loss, d * l_curr) - 1.0)
        return self.alpha * lloss + self.beta * dloss


def make_target():
    torch.manual_seed(0)
    x = torch.randn(64, 20)
    fine = torch.randint(0, N_FINE, (64,))
    coarse = FINE_TO_COARSE[fine]
    return {
        "model": HierarchicalNet(),
        "batch": (x, (coarse, fine)),
        "loss_fn": HierarchicalLoss(beta=0.8),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
    }
