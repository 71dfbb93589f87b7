"""Self-contained: the readme-style MLP trained with CrossEntropyLoss, with and without a softmax output layer."""
import torch
import torch.nn.functional as F
from torch import nn


class MyModule(nn.Module):
    def __init__(self, num_units=10, softmax_head=False):
        super().__init__()
        self.dense0 = nn.Linear(20, num_units)
        self.dropout = nn.Dropout(0.5)
        self.dense1 = nn.Linear(num_units, num_units)
        self.output = nn.Linear(num_units, 2)
        self.softmax = nn.Softmax(dim=-1) if softmax_head else None

    def forward(self, X):
        X = F.relu(self.dense0(X))
        X = self.dropout(X)
        X = F.relu(self.dense1(X))
        X = self.output(X)
        return self.softmax(X) if self.softmax is not None else X


def _data(n=1000, seed=0):
    g = torch.Generator().manual_seed(seed)
    X = torch.randn(n, 20, generator=g)
    w = torch.zeros(20)
    w[:6] = torch.tensor([2.0, -2.0, 1.5, -1.5, 1.0, 1.0])
    y = ((X @ w + 0.3 * torch.randn(n, generator=g)) > 0).long()
    return X, y


def _train(softmax_head):
    torch.manual_seed(0)
    X, y = _data()
    model = MyModule(num_units=32, softmax_head=softmax_head)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    crit = nn.CrossEntropyLoss()
    g = torch.Generator().manual_seed(1)
    for epoch in range(30):
        model.train()
        perm = torch.randperm(len(X), generator=g)
        for i in range(0, len(X), 64):
            idx = perm[i:i + 64]
            loss = crit(model(X[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        out = model(X)
        train_loss = crit(out, y).item()
        probs = out if softmax_head else out.softmax(-1)
        true_nll = F.nll_loss(probs.clamp_min(1e-12).log(), y).item()
        acc = (out.argmax(-1) == y).float().mean().item()
    return train_loss, true_nll, acc, probs.max().item()


def _check() -> str:
    bad_loss, bad_nll, bad_acc, bad_pmax = _train(True)
    ok_loss, ok_nll, ok_acc, ok_pmax = _train(False)
    # CE over probabilities can never go below -log(e/(e+1)) ~ 0.313 for two classes
    assert bad_loss > 0.313 and ok_loss < 0.2, (bad_loss, ok_loss)
    assert bad_loss > 2 * ok_loss, (bad_loss, ok_loss)
    assert bad_acc > 0.9, bad_acc
    return (f"softmax head + CrossEntropyLoss: train loss {bad_loss:.3f} (floor 0.313), acc {bad_acc:.3f}; "
            f"logit head: train loss {ok_loss:.3f}, acc {ok_acc:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
