"""Self-contained: a frozen base network with a bottleneck adapter added after (or before) the optimizer is built."""
import torch
from torch import nn
import torch.nn.functional as F


class Adapter(nn.Module):
    def __init__(self, d, r=8):
        super().__init__()
        self.down = nn.Linear(d, r)
        self.up = nn.Linear(r, d)
        nn.init.zeros_(self.up.weight)
        nn.init.zeros_(self.up.bias)

    def forward(self, h):
        return h + self.up(F.relu(self.down(h)))


class Base(nn.Module):
    def __init__(self, d=32, n_out=10):
        super().__init__()
        self.enc = nn.Linear(d, d)
        self.adapter = nn.Identity()
        self.head = nn.Linear(d, n_out)

    def add_adapter(self):
        self.adapter = Adapter(self.enc.out_features)

    def train_adapter(self):
        for n, p in self.named_parameters():
            p.requires_grad_(n.startswith("adapter."))

    def forward(self, x):
        return self.head(self.adapter(torch.tanh(self.enc(x))))


def _run(optimizer_first):
    torch.manual_seed(0)
    model = Base()
    g = torch.Generator().manual_seed(1)
    x = torch.randn(256, 32, generator=g)
    y = (x[:, :10] * torch.linspace(1, 2, 10)).argmax(1)
    if optimizer_first:
        opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.0)
        model.add_adapter()
        model.train_adapter()
    else:
        model.add_adapter()
        model.train_adapter()
        opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.0)
    w0 = model.adapter.down.weight.detach().clone()
    losses = []
    for _ in range(150):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    moved = (model.adapter.down.weight - w0).abs().max().item()
    return losses, moved


def _check() -> str:
    bad_l, bad_moved = _run(True)
    ok_l, ok_moved = _run(False)
    assert bad_moved == 0.0 and abs(bad_l[-1] - bad_l[0]) < 1e-6, (bad_moved, bad_l[0], bad_l[-1])
    assert ok_moved > 0.01 and ok_l[-1] < 0.7 * ok_l[0], (ok_moved, ok_l[0], ok_l[-1])
    return (f"optimizer built before the adapter: loss {bad_l[0]:.3f} -> {bad_l[-1]:.3f}, adapter weights moved "
            f"{bad_moved:.1e}; adapter added first: loss {ok_l[0]:.3f} -> {ok_l[-1]:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
