"""Self-contained: an SK block whose branch softmax runs over dim=1 (the batch axis of a (k, bs, c, 1, 1) tensor)."""

import torch
from torch import nn


class SK(nn.Module):
    def __init__(self, channel=32, kernels=(1, 3, 5), d=32, dim=1):
        super().__init__()
        self.convs = nn.ModuleList(nn.Conv2d(channel, channel, k, padding=k // 2) for k in kernels)
        self.fc = nn.Linear(channel, d)
        self.fcs = nn.ModuleList(nn.Linear(d, channel) for _ in kernels)
        self.dim = dim
        self.last = None

    def forward(self, x):
        bs, c = x.shape[:2]
        feats = torch.stack([torch.relu(conv(x)) for conv in self.convs], 0)
        z = self.fc(feats.sum(0).mean((-1, -2)))
        w = torch.stack([fc(z).view(bs, c, 1, 1) for fc in self.fcs], 0).softmax(self.dim)
        self.last = w
        return (w * feats).sum(0)


def _check() -> str:
    torch.manual_seed(0)
    sk = SK().eval()
    x = torch.randn(64, 32, 8, 8)
    with torch.no_grad():
        full = sk(x)
        w_full = sk.last
        one = sk(x[:1])
        w_one = sk.last
        other = sk(torch.cat([x[:1], torch.randn(63, 32, 8, 8)]))
    branch_sum = w_full.sum(0)
    diff_alone = (full[0] - one[0]).abs().max().item()
    diff_other = (full[0] - other[0]).abs().max().item()
    assert torch.all(w_one == 1.0), w_one.flatten()[:4]
    assert (branch_sum - 1).abs().max().item() > 0.5, branch_sum.mean()
    assert diff_alone > 1e-2 and diff_other > 1e-5, (diff_alone, diff_other)
    sk.dim = 0
    with torch.no_grad():
        a = sk(x)[0]
        b = sk(x[:1])[0]
    assert (a - b).abs().max().item() < 1e-4 and (sk.last.sum(0) - 1).abs().max().item() < 1e-5
    return (f"bs=1: all branch weights 1.0; bs=64: branch sums mean {branch_sum.mean().item():.3f}, sample 0 output "
            f"changes by {diff_alone:.3f} (alone) / {diff_other:.1e} (other batch mates); softmax over branches fixes both")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
