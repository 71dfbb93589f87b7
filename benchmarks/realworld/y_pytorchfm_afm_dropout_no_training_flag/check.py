"""A small attentional FM whose dropouts ignore self.training: eval-mode AUC-style scores change from call to call."""

import torch
import torch.nn as nn
import torch.nn.functional as F

FIELDS, VOCAB, EMB = 6, 50, 16


class AFM(nn.Module):
    def __init__(self, follow_mode):
        super().__init__()
        self.emb = nn.Embedding(FIELDS * VOCAB, EMB)
        self.attention = nn.Linear(EMB, 16)
        self.projection = nn.Linear(16, 1)
        self.fc = nn.Linear(EMB, 1)
        self.follow_mode = follow_mode
        self.row, self.col = zip(*[(i, j) for i in range(FIELDS) for j in range(i + 1, FIELDS)], strict=False)

    def _drop(self, h, p):
        return F.dropout(h, p=p, training=self.training) if self.follow_mode else F.dropout(h, p=p)

    def forward(self, ids):
        x = self.emb(ids + torch.arange(FIELDS) * VOCAB)
        inner = x[:, list(self.row)] * x[:, list(self.col)]
        a = F.softmax(self.projection(F.relu(self.attention(inner))), dim=1)
        a = self._drop(a, 0.3)
        out = self._drop(torch.sum(a * inner, dim=1), 0.3)
        return self.fc(out).squeeze(-1)


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, VOCAB, (n, FIELDS), generator=g)
    w = torch.randn(FIELDS, VOCAB, generator=torch.Generator().manual_seed(3))
    score = w[torch.arange(FIELDS), ids].sum(-1) + w[0, ids[:, 0]] * w[1, ids[:, 1]]
    return ids, (score > 0).float()


def _run(follow_mode):
    torch.manual_seed(0)
    model = AFM(follow_mode)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    ids, y = _data(1024, 0)
    for _ in range(120):
        opt.zero_grad()
        F.binary_cross_entropy_with_logits(model(ids), y).backward()
        opt.step()
    model.eval()
    tid, ty = _data(1024, 1)
    with torch.no_grad():
        a, b = model(tid), model(tid)
    acc = ((a > 0).float() == ty).float().mean().item()
    loss = F.binary_cross_entropy_with_logits(a, ty).item()
    return (a - b).abs().max().item(), acc, loss


def _check() -> str:
    diff, acc, loss = _run(False)
    diff_ok, acc_ok, loss_ok = _run(True)
    assert diff > 0.05 and diff_ok == 0.0, (diff, diff_ok)
    assert loss > loss_ok, (loss, loss_ok)
    return (f"F.dropout without training flag, after eval(): repeated forward differs by up to {diff:.3f}, "
            f"test logloss {loss:.3f} acc {acc:.3f}; with training=self.training: identical passes, "
            f"logloss {loss_ok:.3f} acc {acc_ok:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
