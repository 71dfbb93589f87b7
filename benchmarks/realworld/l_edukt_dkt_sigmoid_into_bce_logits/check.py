"""Self-contained: a DKT whose forward() ends in sigmoid, trained with BCEWithLogitsLoss (EduKTM issue #15)."""

import torch
import torch.nn as nn

N_Q, T = 8, 20


class Net(nn.Module):
    def __init__(self, sigmoid_out, h=32):
        super().__init__()
        self.rnn = nn.LSTM(2 * N_Q, h, batch_first=True)
        self.fc = nn.Linear(h, N_Q)
        self.sigmoid_out = sigmoid_out

    def forward(self, x):
        out = self.fc(self.rnn(x)[0])
        return torch.sigmoid(out) if self.sigmoid_out else out


def _students(n, seed):
    g = torch.Generator().manual_seed(seed)
    ability = torch.randn(n, 1, generator=g)
    difficulty = torch.randn(1, N_Q, generator=torch.Generator().manual_seed(11))
    q = torch.randint(0, N_Q, (n, T), generator=g)
    p = torch.sigmoid(2.0 * (ability - difficulty))  # (n, N_Q)
    correct = (torch.rand(n, T, generator=g) < p.gather(1, q)).float()
    x = torch.zeros(n, T, 2 * N_Q)
    x.scatter_(2, (q + N_Q * correct.long()).unsqueeze(2), 1.0)
    return x, q, correct


def _auc(scores, labels):
    order = scores.argsort()
    ranks = torch.empty_like(order, dtype=torch.float)
    ranks[order] = torch.arange(1, len(scores) + 1, dtype=torch.float)
    pos = labels.bool()
    n_pos, n_neg = pos.sum().item(), (~pos).sum().item()
    return ((ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)).item()


def _run(sigmoid_out):
    torch.manual_seed(0)
    model = Net(sigmoid_out)
    opt = torch.optim.Adam(model.parameters(), lr=0.002)
    lossf = nn.BCEWithLogitsLoss()
    x, q, c = _students(256, 1)
    for _ in range(15):
        for i in range(0, 256, 32):
            out = model(x[i : i + 32])[:, :-1]
            pred = out.gather(2, q[i : i + 32, 1:].unsqueeze(2)).squeeze(2)
            loss = lossf(pred, c[i : i + 32, 1:])
            opt.zero_grad()
            loss.backward()
            opt.step()
    xt, qt, ct = _students(256, 2)
    with torch.no_grad():
        out = model(xt)[:, :-1].gather(2, qt[:, 1:].unsqueeze(2)).squeeze(2)
    return loss.item(), _auc(out.flatten(), ct[:, 1:].flatten()), float(torch.sigmoid(out).max())


def _check() -> str:
    lb, auc_b, pmax_b = _run(True)
    lf, auc_f, _ = _run(False)
    assert pmax_b < 0.74, pmax_b
    assert lb > lf + 0.05 and auc_f > auc_b + 0.01, (lb, lf, auc_b, auc_f)
    return (
        f"sigmoid output into BCEWithLogitsLoss: train loss {lb:.3f}, test AUC {auc_b:.3f}, effective probabilities "
        f"capped at {pmax_b:.3f}; logits into the same loss: loss {lf:.3f}, AUC {auc_f:.3f}"
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
