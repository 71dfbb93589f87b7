"""NAF-style value head trained toward a Bellman target with the done mask added rather than multiplied."""
import torch
import torch.nn as nn

GAMMA = 0.99


class ValueHead(nn.Module):
    def __init__(self, d_s=4, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_s, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, s):
        return self.net(s)


def make_target():
    torch.manual_seed(0)
    model = ValueHead()

    def value_loss(v, targets):
        r, s_next, mask = targets
        with torch.no_grad():
            v_next = model(s_next)
            expected = r + GAMMA * mask + v_next  # BUG: should be r + GAMMA * mask * v_next
        return nn.functional.mse_loss(v, expected)

    n = 64
    s = torch.randn(n, 4)
    s_next = s + 0.1 * torch.randn(n, 4)
    r = torch.rand(n, 1)
    mask = (torch.rand(n, 1) > 0.25).float()  # 0.0 for terminal transitions
    return {
        "model": model,
        "batch": (s, (r, s_next, mask)),
        "loss_fn": value_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
    }
