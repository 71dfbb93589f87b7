import torch
import torch.nn as nn
import torch.nn.functional as F

V, L = 20, 24


def _corpus(n, seed):
    """Short 'verses' from a fixed random bigram table: learnable structure plus a lot of unpredictable detail."""
    table = F.softmax(2.0 * torch.randn(V, V, generator=torch.Generator().manual_seed(0)), dim=1)
    g = torch.Generator().manual_seed(seed)
    seq = torch.zeros(n, L, dtype=torch.long)
    seq[:, 0] = torch.randint(0, V, (n,), generator=g)
    for t in range(1, L):
        seq[:, t] = torch.multinomial(table[seq[:, t - 1]], 1, generator=g).squeeze(1)
    return seq


class TinyLM(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.emb = nn.Embedding(V, d)
        self.rnn = nn.GRU(d, d, num_layers=1, batch_first=True)
        self.head = nn.Linear(d, V)

    def forward(self, ids):
        return self.head(self.rnn(self.emb(ids))[0])


def _loss(model, seq):
    return F.cross_entropy(model(seq[:, :-1]).reshape(-1, V), seq[:, 1:].reshape(-1))


def _check() -> str:
    torch.manual_seed(0)
    train, val = _corpus(120, 1), _corpus(200, 2)  # a very small training corpus
    model = TinyLM()
    opt = torch.optim.AdamW(model.parameters(), lr=4e-3, weight_decay=0.0)
    train_curve, val_curve = [], []
    for step in range(1, 241):
        idx = torch.randint(0, len(train), (32,))
        opt.zero_grad()
        loss = _loss(model, train[idx])
        loss.backward()
        opt.step()
        if step % 12 == 0:
            with torch.no_grad():
                train_curve.append(_loss(model, train).item())
                val_curve.append(_loss(model, val).item())
    best = min(range(len(val_curve)), key=val_curve.__getitem__)
    assert best < len(val_curve) - 3 and val_curve[-1] > val_curve[best] + 0.3, val_curve
    assert train_curve[-1] < train_curve[best] - 0.5, train_curve
    return (f"val loss {val_curve[0]:.2f} -> min {val_curve[best]:.2f} at step {12 * (best + 1)} -> {val_curve[-1]:.2f} "
            f"at step 240 while train loss falls to {train_curve[-1]:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
