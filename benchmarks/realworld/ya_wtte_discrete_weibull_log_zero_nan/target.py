"""WTTE-RNN: a GRU predicts Weibull (alpha, beta) for the time to the next event at every step; discrete Weibull
log-likelihood with right-censoring."""
import torch
import torch.nn as nn

EPS = 1e-7


class WTTERNN(nn.Module):
    def __init__(self, n_features=3, hidden=16, init_alpha=50.0, max_beta=4.0):
        super().__init__()
        self.rnn = nn.GRU(n_features, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 2)
        self.init_alpha = init_alpha
        self.max_beta = max_beta

    def forward(self, x):
        h, _ = self.rnn(x)
        o = self.out(h)
        alpha = self.init_alpha * torch.exp(o[..., 0])
        beta = self.max_beta * torch.sigmoid(o[..., 1])
        return torch.stack([alpha, beta], dim=-1)


def loglik_discrete(y, u, a, b):
    hazard0 = torch.pow((y + EPS) / a, b)
    hazard1 = torch.pow((y + 1.0) / a, b)
    return u * torch.log(torch.exp(hazard1 - hazard0) - 1.0) - hazard1


def weibull_loss(output, target):
    y, u = target[..., 0], target[..., 1]
    a, b = output[..., 0], output[..., 1]
    return -loglik_discrete(y, u, a, b).mean()


def make_sequences(n=24, T=24, seed=0):
    """Per step: time-to-event y and u=1 if the event was observed, 0 if the sequence is censored."""
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, T, 3, generator=g)
    y = torch.zeros(n, T)
    u = torch.zeros(n, T)
    for i in range(n):
        event = torch.randint(5, 200, (1,), generator=g).item()
        observed = event < T
        for t in range(T):
            y[i, t] = max(event - t, 0) if (not observed or t <= event) else 0
            u[i, t] = 1.0 if observed else 0.0
    return x, torch.stack([y, u], dim=-1)


def make_target():
    torch.manual_seed(0)
    x, target = make_sequences()
    return {
        "model": WTTERNN(),
        "batch": (x, target),
        "loss_fn": weibull_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=5e-2),
    }
