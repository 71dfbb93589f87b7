"""Self-contained: a small graph-conv classifier on skeleton-like data, with and without a softmax in forward."""

import torch
from torch import nn
import torch.nn.functional as F


class GraphConv(nn.Module):
    def __init__(self, cin, cout, adj):
        super().__init__()
        self.register_buffer("adj", adj)
        self.lin = nn.Linear(cin, cout)

    def forward(self, x):
        return self.adj @ self.lin(x)


class SkeletonGCN(nn.Module):
    def __init__(self, adj, num_classes=10, softmax_out=False):
        super().__init__()
        self.gcn1 = GraphConv(3, 32, adj)
        self.gcn2 = GraphConv(32, 64, adj)
        self.fc = nn.Linear(64, num_classes)
        self.softmax_out = softmax_out

    def forward(self, x):
        h = F.relu(self.gcn1(x))
        h = F.relu(self.gcn2(h))
        out = self.fc(h.mean(1))
        return F.softmax(out, dim=1) if self.softmax_out else out


def _data(seed=0, n=200, joints=15, classes=10):
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(classes, joints, 3, generator=g)
    y = torch.randint(0, classes, (n,), generator=g)
    x = protos[y] + 0.3 * torch.randn(n, joints, 3, generator=g)
    adj = torch.eye(joints)
    for j in range(1, joints):
        adj[j, j - 1] = adj[j - 1, j] = 1.0
    adj = adj / adj.sum(1, keepdim=True)
    return x, y, adj


def _train(softmax_out):
    torch.manual_seed(0)
    x, y, adj = _data()
    model = SkeletonGCN(adj, softmax_out=softmax_out)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    crit = nn.CrossEntropyLoss()
    for _ in range(150):
        opt.zero_grad()
        loss = crit(model(x), y)
        loss.backward()
        opt.step()
    acc = (model(x).argmax(1) == y).float().mean().item()
    return loss.item(), acc


def _check() -> str:
    bad_loss, bad_acc = _train(True)
    ok_loss, ok_acc = _train(False)
    floor = -torch.log_softmax(torch.tensor([1.0] + [0.0] * 9), 0)[0].item()
    assert bad_acc > 0.75 and bad_loss > floor - 0.01, (bad_loss, bad_acc, floor)
    assert ok_loss < 0.2 and ok_loss < bad_loss / 5, (ok_loss, bad_loss)
    return (
        f"softmax before CrossEntropyLoss: train acc {bad_acc:.2f} but loss stuck at {bad_loss:.3f} "
        f"(floor {floor:.3f} for 10 classes); raw logits: loss {ok_loss:.3f}, acc {ok_acc:.2f}"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
