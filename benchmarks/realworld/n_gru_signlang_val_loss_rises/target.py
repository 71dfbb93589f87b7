"""Sign-language video classifier: a GRU over per-frame pose/hand features (T=16 frames, 24 features), 10 signs,
trained with cross-entropy and Adam on a small set of recorded clips."""

import torch
import torch.nn as nn

N_SIGNS, T, FEAT = 10, 16, 24


class SignGRU(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(FEAT, 96, num_layers=2, batch_first=True)
        self.head = nn.Linear(96, N_SIGNS)

    def forward(self, x):
        out, _ = self.gru(x)
        return self.head(out[:, -1])


def clips(n, seed):
    motions = torch.randn(N_SIGNS, T, FEAT, generator=torch.Generator().manual_seed(11))
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, N_SIGNS, (n,), generator=g)
    shift = torch.randint(0, 3, (n,), generator=g)
    x = torch.stack([torch.roll(motions[c], int(s), 0) for c, s in zip(y, shift)])
    x = 0.5 * x + 1.3 * torch.randn(n, T, FEAT, generator=g)  # signer variation and tracking noise
    return x, y


def accuracy(out, y):
    return (out.argmax(1) == y).float().mean().item()


def make_target():
    torch.manual_seed(0)
    return {
        "model": SignGRU(),
        "batch": clips(32, 1),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "metric_fn": accuracy,
        "train_data": clips(160, 2),
        "val_data": clips(160, 3),
    }
